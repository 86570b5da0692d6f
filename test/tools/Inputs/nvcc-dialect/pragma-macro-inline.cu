// Not nvcc dialect: a macro that expands to #pragma unroll after other code on its line (nvcc's
// preprocessed text has no directive there).
#define UNROLL #pragma unroll
__global__ void k(int *P) {
  int X = 0; UNROLL
  for (int I = 0; I < 8; ++I) P[I] = X;
}
