// A bitfield's write is a write: the load of the word around it is the write's, not a read of
// the source. `|=` on a whole word reads it.
struct Half {
  unsigned i : 31;
  unsigned b : 1;
};

__global__ void writeFields(volatile Half *nodes, Half *plain, unsigned *bits, int k, unsigned v) {
  nodes[k].b = 1;
  nodes[k].i = v;
  plain[k].i = v;
  bits[k] |= 4u;
}
