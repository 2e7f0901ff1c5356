/*
 * package.h - gpulab gradescope-package: a lab's Gradescope autograder zip
 * (docs/instructor-guide.md): the kit without its answer keys, setup.sh and
 * run_autograder, and the hidden datasets' seed or secret if asked.
 */
#ifndef GPULAB_PACKAGE_H
#define GPULAB_PACKAGE_H

/* gpulab gradescope-package LAB OUT.zip [--seed S | --secret-file F] [--backend B] */
int cmd_gradescope_package(int argc, char **argv);

#endif
