#pragma once
struct Box {
  template <class T> long get(T n);
  long loops(int n);
  long held(int n);
};
template <class T> struct TBox {
  long get(T n);
};
