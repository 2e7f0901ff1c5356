/*
 * gputk.h - wb.h under libgputk's names (the Teaching Kit's renamed fork):
 * every gpuTK* name is the wb* one, the same implementation. Levels and
 * timer kinds keep their names: gpuTKLog(INFO, ...), gpuTKTime_start(GPU, ...).
 */
#ifndef GPULAB_GPUTK_H
#define GPULAB_GPUTK_H

#include "wb.h"

typedef wbArg_t gpuTKArg_t;
typedef wbImage_t gpuTKImage_t;

#define gpuTKArg_read wbArg_read
#define gpuTKArg_delete wbArg_delete
#define gpuTKArg_getInputCount wbArg_getInputCount
#define gpuTKArg_getInputFile wbArg_getInputFile
#define gpuTKArg_getExpectedOutputFile wbArg_getExpectedOutputFile
#define gpuTKArg_getOutputFile wbArg_getOutputFile
#define gpuTKArg_getType wbArg_getType
#define gpuTKImport wbImport
#define gpuTKExport wbExport
#define gpuTKImage_new wbImage_new
#define gpuTKImage_delete wbImage_delete
#define gpuTKImage_getWidth wbImage_getWidth
#define gpuTKImage_getHeight wbImage_getHeight
#define gpuTKImage_getChannels wbImage_getChannels
#define gpuTKImage_getPitch wbImage_getPitch
#define gpuTKImage_getData wbImage_getData
#define gpuTKSolution wbSolution
#define gpuTKLog wbLog
#define gpuTKTime_start wbTime_start
#define gpuTKTime_stop wbTime_stop
#define gpuTKPrint wbPrint
#define gpuTKAssert wbAssert
#define gpuTKAssertMessage wbAssertMessage

#endif
