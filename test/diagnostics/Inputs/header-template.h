// A function template declared outside the translated file.
template <class T> T header_twice(T n) { return 2 * n; }
