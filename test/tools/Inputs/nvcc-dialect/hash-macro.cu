// Not nvcc dialect: a macro whose '#' is no #pragma.
#define HASH #include
__global__ void k(int *P) { HASH; }
