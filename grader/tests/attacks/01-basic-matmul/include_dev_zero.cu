// attack: an #include that never ends, to grow the compiler without bound
// expect: zero
#include "/dev/zero"
