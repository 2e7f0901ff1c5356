// Writes BlockSum/Dataset/<n>/ in the current folder: input.raw, a vector
// of small whole numbers (so that every order of adding them gives the
// same float), and output.raw, their sum (1, then the sum).
#include "wb.h"

static char *dataset_dir;

static void make_case(int number, int length) {
  char *folder = wbDirectory_create(wbPath_join(dataset_dir, number));
  FILE *in = fopen(wbPath_join(folder, "input.raw"), "w");
  fprintf(in, "%d\n", length);
  long total = 0;
  for (int i = 0; i < length; i++) {
    int v = rand() % 19 - 9;
    total += v;
    fprintf(in, "%d.00\n", v);
  }
  fclose(in);
  FILE *out = fopen(wbPath_join(folder, "output.raw"), "w");
  fprintf(out, "1\n%ld.00\n", total);
  fclose(out);
}

int main() {
  dataset_dir = wbPath_join(wbDirectory_current(), "BlockSum", "Dataset");
  const int lengths[] = {1, 200, 512, 1500, 8200, 30000};
  for (int n = 0; n < 6; n++)
    make_case(n, lengths[n]);
  return 0;
}
