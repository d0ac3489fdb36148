#pragma once
namespace geo {
class Grid {
 public:
  long area(int n) const;
 private:
  struct Cell { int w; };
  int side_ = 4;
};
}  // namespace geo
