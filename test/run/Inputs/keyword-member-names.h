// A library header whose names are keywords in a .cilkpp file (headers are
// not translated, and their words are ordinary names).
#pragma once

struct Options {
  bool sync = true;
  int spawn = 3;
  int spawned() const { return spawn * 2; }
  template <class T> T sync_as() const { return static_cast<T>(sync); }
};

struct Pool {
  template <class T> T spawn(T x) const { return x + 1; }
};

namespace journal {
inline int sync() { return 11; }
}  // namespace journal
