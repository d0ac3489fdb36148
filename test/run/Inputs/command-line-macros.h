// Given with -include: defined before the translated file's first line.
#define value 2
