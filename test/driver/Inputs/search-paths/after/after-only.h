#define AFTER_VALUE 2
