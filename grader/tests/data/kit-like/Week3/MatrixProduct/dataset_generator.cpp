// Writes MatrixProduct/Dataset/<n>/ in the current folder: input0.raw (A)
// and input1.raw (B), whole numbers from wbDataset_generate, and
// output.csv, their product (rows and columns, then the values, commas
// between them, two decimals).
#include "wb.h"

static char *where;

static void random_matrix(const char *path, int rows, int cols) {
  wbGenerateParams_t params;
  params.raw.rows = rows;
  params.raw.cols = cols;
  params.raw.minVal = -4;
  params.raw.maxVal = 4;
  params.raw.type = wbType_integer;
  wbDataset_generate(path, wbExportKind_raw, params);
}

static void make_case(int number, int m, int k, int n) {
  char *folder = wbDirectory_create(wbPath_join(where, number));
  char *pathA = wbPath_join(folder, "input0.raw"), *pathB = wbPath_join(folder, "input1.raw");
  random_matrix(pathA, m, k);
  random_matrix(pathB, k, n);
  int ar, ac, br, bc;
  float *A = (float *)wbImport(pathA, &ar, &ac);
  float *B = (float *)wbImport(pathB, &br, &bc);
  FILE *out = fopen(wbPath_join(folder, "output.csv"), "w");
  fprintf(out, "%d %d\n", m, n);
  for (int r = 0; r < m; r++) {
    for (int c = 0; c < n; c++) {
      double dot = 0;
      for (int t = 0; t < k; t++)
        dot += (double)A[r * k + t] * B[t * n + c];
      fprintf(out, c + 1 < n ? "%.2f," : "%.2f\n", dot);
    }
  }
  fclose(out);
  free(A);
  free(B);
}

int main() {
  where = wbPath_join(wbDirectory_current(), "MatrixProduct", "Dataset");
  make_case(0, 8, 8, 8);
  make_case(1, 37, 29, 41);
  make_case(2, 16, 33, 17);
  make_case(3, 64, 64, 64);
  make_case(4, 1, 50, 3);
  make_case(5, 90, 7, 70);
  return 0;
}
