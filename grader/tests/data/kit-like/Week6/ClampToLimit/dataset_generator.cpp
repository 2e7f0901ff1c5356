// Writes ClampToLimit/Dataset/<n>/ in the current folder: input0.raw,
// whole numbers (a count, then one a line), input1.raw, the limit alone,
// and output.raw, the values with those above the limit lowered to it.
#include "wb.h"

static char *top;

static void write_ints(const char *path, const int *v, int count) {
  FILE *f = fopen(path, "w");
  fprintf(f, "%d\n", count);
  for (int i = 0; i < count; i++)
    fprintf(f, "%d\n", v[i]);
  fclose(f);
}

static void make_case(int number, int count, int limit) {
  char *folder = wbDirectory_create(wbPath_join(top, number));
  int *v = (int *)malloc(count * sizeof(int)), *w = (int *)malloc(count * sizeof(int));
  for (int i = 0; i < count; i++) {
    v[i] = rand() % 2001 - 1000;
    w[i] = v[i] > limit ? limit : v[i];
  }
  write_ints(wbPath_join(folder, "input0.raw"), v, count);
  FILE *flag = fopen(wbPath_join(folder, "input1.raw"), "w");
  fprintf(flag, "%d\n", limit);
  fclose(flag);
  write_ints(wbPath_join(folder, "output.raw"), w, count);
  free(v);
  free(w);
}

int main() {
  top = wbPath_join(wbDirectory_current(), "ClampToLimit", "Dataset");
  make_case(0, 5, 0);
  make_case(1, 100, 250);
  make_case(2, 1000, -300);
  make_case(3, 4097, 999);
  make_case(4, 10000, 17);
  make_case(5, 256, -1000);
  return 0;
}
