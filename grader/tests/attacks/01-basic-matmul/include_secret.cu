// attack: #includes a root-only file (the course's secret), hoping the
// compiler quotes it in the build log that the student sees
// expect: zero
#include "@SECRET@"
