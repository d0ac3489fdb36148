// A unity build: both translations in one file.
#include "first.cpp"
#include "second.cpp"
