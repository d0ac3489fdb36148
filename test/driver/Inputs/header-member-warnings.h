#pragma once
namespace geo {
struct Shape {
  long area(int n) const;
  static long count(int n);
};
}  // namespace geo
