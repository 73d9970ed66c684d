// flamefold's C++ API, all of it: fold profiles into stack counts
// (flamefold/fold.h) and draw them as flame graphs (flamefold/svg.h).
// Link with `pkg-config --cflags --libs flamefold`; see flamefold(3).
#ifndef FLAMEFOLD_API_FLAMEFOLD_H_
#define FLAMEFOLD_API_FLAMEFOLD_H_

#include "flamefold/fold.h"
#include "flamefold/input.h"
#include "flamefold/status.h"
#include "flamefold/svg.h"

#endif  // FLAMEFOLD_API_FLAMEFOLD_H_
