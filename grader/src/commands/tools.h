/*
 * tools.h - data-file commands for instructors (and the tests):
 *   gpulab inspect FILE...                 validate data files, print their shape
 *   gpulab convert IN OUT                  convert a matrix between .raw, .ppm/.pgm and .tensor
 *   gpulab compare LAB OUTPUT EXPECTED     compare an output file under a lab's tolerance
 */
#ifndef GPULAB_TOOLS_H
#define GPULAB_TOOLS_H

int cmd_inspect(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_explain_sanitizer(int argc, char **argv);

#endif
