// Writes VectorSum/Dataset/<n>/ in the current folder: input0.raw and
// input1.raw (a length, then one value a line, two decimals) and
// output.raw, their sum. rand() is never seeded: the same files each run.
#include "wb.h"

static const char *dataset_root;

static float two_decimals(void) {
  return (float)(rand() % 801 - 400) / 100.0f;
}

static void save_vector(const char *path, const float *values, int count) {
  FILE *out = fopen(path, "w");
  fprintf(out, "%d\n", count);
  for (int k = 0; k < count; k++)
    fprintf(out, "%.2f\n", values[k]);
  fclose(out);
}

static void make_case(int number, int count) {
  char *folder = wbDirectory_create(wbPath_join(dataset_root, number));
  float *a = (float *)malloc(count * sizeof(float));
  float *b = (float *)malloc(count * sizeof(float));
  float *sum = (float *)malloc(count * sizeof(float));
  for (int k = 0; k < count; k++) {
    a[k] = two_decimals();
    b[k] = two_decimals();
    sum[k] = a[k] + b[k];
  }
  save_vector(wbPath_join(folder, "input0.raw"), a, count);
  save_vector(wbPath_join(folder, "input1.raw"), b, count);
  save_vector(wbPath_join(folder, "output.raw"), sum, count);
  free(a);
  free(b);
  free(sum);
}

int main() {
  dataset_root = wbPath_join(wbDirectory_current(), "VectorSum", "Dataset");
  const int counts[] = {1, 31, 128, 1000, 4099, 12000};
  for (int number = 0; number < 6; number++)
    make_case(number, counts[number]);
  return 0;
}
