// Writes LetterCount/Dataset/<n>/ in the current folder: input0.txt, words
// of random lower-case letters with spaces and line breaks, and
// output.raw, how many times each of the 128 ASCII codes occurs in it
// (128, then one count a line).
#include "wb.h"

static char *base;

static void make_case(int number, int length) {
  char *folder = wbDirectory_create(wbPath_join(base, number));
  unsigned int seen[128] = {0};
  FILE *text = fopen(wbPath_join(folder, "input0.txt"), "w");
  for (int i = 0; i < length; i++) {
    int pick = rand() % 40;
    char c = pick < 26 ? (char)('a' + pick) : pick < 36 ? ' ' : pick < 38 ? '\n' : pick == 38 ? '.' : ',';
    if (i == 0 && (c == ' ' || c == '\n'))
      c = 'q'; /* a text, not a number: it starts with a letter */
    fputc(c, text);
    seen[(int)c]++;
  }
  fclose(text);
  FILE *counts = fopen(wbPath_join(folder, "output.raw"), "w");
  fprintf(counts, "128\n");
  for (int c = 0; c < 128; c++)
    fprintf(counts, "%u\n", seen[c]);
  fclose(counts);
}

int main() {
  base = wbPath_join(wbDirectory_current(), "LetterCount", "Dataset");
  const int lengths[] = {9, 300, 1024, 5000, 20011, 65536};
  for (int n = 0; n < 6; n++)
    make_case(n, lengths[n]);
  return 0;
}
