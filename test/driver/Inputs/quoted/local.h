// Found only relative to quoted-include.cilkpp (no -I names this directory).
inline int local_answer() { return 42; }
