// Writes GrayImage/Dataset/<n>/ in the current folder: input.ppm, random
// RGB pixels from wbDataset_generate, and output.pbm, its luminance as an
// 8-bit one-channel image (a P5 file under the name the Kit gives it).
#include "wb.h"

static char *root_folder;

static void gray_of(wbImage_t colour, const char *path) {
  int w = wbImage_getWidth(colour), h = wbImage_getHeight(colour);
  const float *rgb = wbImage_getData(colour);
  FILE *out = fopen(path, "wb");
  fprintf(out, "P5\n%d %d\n255\n", w, h);
  for (int p = 0; p < w * h; p++) {
    float y = 0.21f * rgb[3 * p] + 0.71f * rgb[3 * p + 1] + 0.07f * rgb[3 * p + 2];
    int level = (int)(y * 255.0f + 0.5f);
    fputc(level > 255 ? 255 : level, out);
  }
  fclose(out);
}

static void make_case(int number, int w, int h) {
  char *folder = wbDirectory_create(wbPath_join(root_folder, number));
  char *input = wbPath_join(folder, "input.ppm");
  wbGenerateParams_t params;
  params.ppm.width = w;
  params.ppm.height = h;
  params.ppm.channels = 3;
  params.ppm.minVal = 0;
  params.ppm.maxVal = 1;
  wbDataset_generate(input, wbExportKind_ppm, params);
  wbImage_t colour = wbImport(input);
  gray_of(colour, wbPath_join(folder, "output.pbm"));
  wbImage_delete(colour);
}

int main() {
  root_folder = wbPath_join(wbDirectory_current(), "GrayImage", "Dataset");
  make_case(0, 7, 5);
  make_case(1, 64, 64);
  make_case(2, 100, 37);
  make_case(3, 33, 129);
  make_case(4, 256, 200);
  make_case(5, 1, 300);
  return 0;
}
