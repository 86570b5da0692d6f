// Not nvcc dialect: a call that leaves out an argument that has no default anywhere, beside one
// whose default is given only on the out-of-line definition, of a function of the same name.
template <typename T, typename U> struct Tile { __device__ int width(int Pad); };
template <typename T> struct Tile<T, int> { __device__ int width(int Pad); };
template <typename T> __device__ int Tile<T, int>::width(int Pad = 4) { return 32 + Pad; }
struct Other { __device__ int width(int Pad); };
__device__ int use(Other O) { Tile<float, int> T; return T.width() + O.width(); }
