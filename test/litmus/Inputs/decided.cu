// Tests a path has already decided: a kernel's mode parameter tested twice, with no statement
// between that changes it, runs one arm or the other, never both. -O2 threads the second branch
// on the path out of the first arm, so the device IR has no path from the write to the publish;
// the AST front end must close it too (model consistentTests), and keep it open wherever the
// value may have changed or the tests overlap.

// LITMUS: forbidden
// The data is written in mode 1 and the flag published in mode 2: no thread does both.
__global__ void exclusiveModes(int *data, int *flag, int *out, int mode) {
  if (blockIdx.x == 0) {
    if (mode == 1)
      data[threadIdx.x] = 1;
    if (mode == 2)
      atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Every mode but 2 writes the data, and mode 1 publishes after it with a relaxed exchange.
__global__ void overlappingModes(int *data, int *flag, int *out, int mode) {
  if (blockIdx.x == 0) {
    if (mode != 2)
      data[threadIdx.x] = 1;
    if (mode == 1)
      atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The write sits in the else arm of mode != 1, so mode is 1 there; the publish needs 2.
__global__ void elseArmDecides(int *data, int *flag, int *out, int mode) {
  if (blockIdx.x == 0) {
    if (mode != 1)
      out[0] = 0;
    else
      data[threadIdx.x] = 1;
    if (mode == 2)
      atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// One part of a condition that held decides: the write needs mode 1 and the publish mode 0.
__global__ void conjunctionDecides(int *data, int *flag, int *out, int mode, int full) {
  if (blockIdx.x == 0) {
    if (mode == 1 && full)
      data[threadIdx.x] = 1;
    if (!mode)
      atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The mode changes between the tests: after mode 1's write it is 2, and the publish runs.
__global__ void modeChangedBetween(int *data, int *flag, int *out, int mode) {
  if (blockIdx.x == 0) {
    if (mode == 1)
      data[threadIdx.x] = 1;
    mode += 1;
    if (mode == 2)
      atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The second test reads another variable: nothing relates the two, both arms may run.
__global__ void anotherVariable(int *data, int *flag, int *out, int mode, int level) {
  if (blockIdx.x == 0) {
    if (mode == 1)
      data[threadIdx.x] = 1;
    if (level == 2)
      atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: forbidden
// The modes are tested in a device function the kernel calls: one call runs both tests.
__device__ void stepInMode(int *data, int *flag, int mode) {
  if (mode == 1)
    data[threadIdx.x] = 1;
  if (mode == 2)
    atomicExch(flag, 1);
}

__global__ void exclusiveModesInCallee(int *data, int *flag, int *out, int mode) {
  if (blockIdx.x == 0) {
    stepInMode(data, flag, mode);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// Two calls of a device function, each with its own mode: the first call's write precedes the
// second call's publish, whatever each call's tests decided.
__device__ void stepInMode2(int *data, int *flag, int mode) {
  if (mode == 1)
    data[threadIdx.x] = 1;
  if (mode == 2)
    atomicExch(flag, 1);
}

__global__ void twoCallsTwoModes(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    stepInMode2(data, flag, 1);
    stepInMode2(data, flag, 2);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[threadIdx.x];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The tests read the lane: lane 1 writes the data and lane 2 publishes after the warp's sync,
// relaxed. Each thread runs one arm, and the rules pair the two threads' operations: the tests
// decide which thread runs what, not that no path runs both.
__global__ void modeFromTheLane(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    int mode = threadIdx.x % 32;
    if (mode == 1)
      data[0] = 1;
    __syncwarp();
    if (mode == 2)
      atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[0];
  }
}

// LITMUS: allowed cuda-scope-release-acquire
// The same with the lane handed to a device function as its mode.
__device__ void stepInMode3(int *data, int *flag, int mode) {
  if (mode == 1)
    data[0] = 1;
  __syncwarp();
  if (mode == 2)
    atomicExch(flag, 1);
}

__global__ void laneHandedAsMode(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    stepInMode3(data, flag, threadIdx.x % 32);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[blockIdx.x] = data[0];
  }
}
