// attack: compiles the reference solution in by a relative #include (from the
// kit's labs/ folder, where lab.h used to be found) instead of writing it
// expect: zero
#include "../../solutions/01-basic-matmul/basic_matmul.cu"
