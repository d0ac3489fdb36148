// Classes a .cilkpp file defines members of: the usual header/source split.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

class Tree {
 public:
  explicit Tree(int depth);
  ~Tree();
  long count() const;               // spawns countNode
  long sum(int limit) const;        // cilk_for over the levels
  std::vector<long> levels() const; // class-type state across spawns
  long checked(int bad) const;      // a child throws
  static long fib(int n);           // static member, overloaded below
  static long fib(long n, int scale);
  virtual long weight(int n) const; // virtual
  const char *name() const;

 private:
  struct Node {
    Node *left = nullptr, *right = nullptr;
    int value = 0;
  };
  static Node *build(int depth, int &next);
  static void destroy(Node *n);
  static long countNode(const Node *n);
  long levelSum(const Node *n, int level) const;
  long throwing(const Node *n, int bad) const;
  Node *root_;
  int depth_;
};

namespace geo {
class Grid {
 public:
  class Cell {
   public:
    long area(int n, int) const;    // nested class, unnamed parameter
  };
  long total(int n) noexcept;
};
}  // namespace geo
