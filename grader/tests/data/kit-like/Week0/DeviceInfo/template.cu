// DeviceInfo: prints what the runtime says about each device. Nothing to
// compare, so no Dataset folder and no generator: gpulab import-wb says
// why it cannot import it.
#include <wb.h>

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  (void)args;
  int count = 0;
  //@@ Ask the runtime how many devices there are
  wbLog(INFO, "Devices found: ", count);
  for (int d = 0; d < count; d++) {
    cudaDeviceProp prop;
    //@@ Fill prop for device d
    wbLog(INFO, "Device ", d, ": ", prop.name, ", compute capability ", prop.major, ".", prop.minor);
    wbLog(INFO, "  global memory: ", prop.totalGlobalMem >> 20, " MiB, shared memory per block: ",
          prop.sharedMemPerBlock, " bytes");
  }
  return 0;
}
