long work(long n);
int main() { return work(1) == 1 ? 0 : 1; }
