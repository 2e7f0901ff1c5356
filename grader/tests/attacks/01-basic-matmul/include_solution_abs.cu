// attack: compiles the reference solution in by its absolute path
// expect: zero
#include "@KIT@/solutions/01-basic-matmul/basic_matmul.cu"
