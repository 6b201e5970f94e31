// Products of float64 polynomials by FFT, for the math page's worker (math-worker.js): the
// engine's pyengine.math.poly asks for them where numpy is not installed, as in the browser.
// `product(x, y, size)` returns the first `size` coefficients of x * y (Float64Arrays); its
// error is about 1e-15 of the largest coefficient, like numpy's.

const twiddles = new Map();

/**
 * The twiddle factors of every stage, each stage's contiguous: for a stage of length `len`,
 * entries len/2 .. len-1 hold cos and sin of -2 pi k / len (k < len/2), computed directly.
 */
function roots(n) {
  let t = twiddles.get(n);
  if (!t) {
    t = { cos: new Float64Array(n), sin: new Float64Array(n) };
    for (let half = 1; half < n; half <<= 1) {
      for (let k = 0; k < half; k++) {
        const a = (-Math.PI * k) / half;
        t.cos[half + k] = Math.cos(a);
        t.sin[half + k] = Math.sin(a);
      }
    }
    twiddles.set(n, t);
  }
  return t;
}

/** In-place iterative radix-2 FFT of (re, im), length a power of two; inverse when `inv`. */
function fft(re, im, inv) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i]; re[i] = re[j]; re[j] = t;
      t = im[i]; im[i] = im[j]; im[j] = t;
    }
  }
  const { cos, sin } = roots(n);
  const sign = inv ? -1 : 1;
  for (let half = 1; half < n; half <<= 1) {
    const len = half << 1;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const wr = cos[half + k];
        const wi = sign * sin[half + k];
        const a = i + k;
        const b = a + half;
        const br = re[b], bi = im[b];
        const xr = br * wr - bi * wi;
        const xi = br * wi + bi * wr;
        re[b] = re[a] - xr; im[b] = im[a] - xi;
        re[a] += xr; im[a] += xi;
      }
    }
  }
}

/** The first `size` coefficients of the product of the polynomials x and y (Float64Arrays). */
export function product(x, y, size) {
  const need = x.length + y.length - 1;
  let n = 1;
  while (n < need) n <<= 1;
  // Both real inputs in one complex transform: z = x + i y, then X Y from z's symmetry.
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  re.set(x);
  im.set(y);
  fft(re, im, false);
  const pr = new Float64Array(n);
  const pi = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const j = (n - k) & (n - 1);
    // X = (Z[k] + conj Z[n-k]) / 2, Y = (Z[k] - conj Z[n-k]) / 2i
    const xr = (re[k] + re[j]) / 2, xi = (im[k] - im[j]) / 2;
    const yr = (im[k] + im[j]) / 2, yi = (re[j] - re[k]) / 2;
    pr[k] = xr * yr - xi * yi;
    pi[k] = xr * yi + xi * yr;
  }
  fft(pr, pi, true);
  const out = new Float64Array(Math.min(size, need));
  for (let k = 0; k < out.length; k++) out[k] = pr[k] / n;
  return out;
}
