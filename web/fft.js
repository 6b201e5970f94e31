// Products of float64 polynomials by FFT, for the math page's worker (math-worker.js): the
// engine's pyengine.math.poly asks for them where numpy is not installed, as in the browser.
// `product(x, y, size)` returns the first `size` coefficients of x * y (Float64Arrays); its
// error is about 1e-15 of the largest coefficient, like numpy's.
//
// Book of Spells' what-if asks for some 750 products of 45,001 coefficients, so each costs:
// - a real input of length n = 2m is one complex FFT of length m (its even coefficients as
//   real parts, its odd ones as imaginary parts), the product's inverse one more;
// - n is a power of two or three times one (98,304 rather than 131,072 for 90,001);
// - the spectra of the last few inputs are kept: the engine's repeated squaring hands the
//   same polynomial in again (t * t, then out * t), recognised by its coefficients;
// - twiddles, digit reversal and work buffers are made once per length, nothing per call
//   but the result.

const plans = new Map();

/**
 * What a complex FFT of length m = M or 3M (M a power of two, >= 4) needs, made once: where
 * each input index goes (`perm`: the three decimated thirds side by side, each in
 * bit-reversed order), the twiddles of the power-of-two stages (for a stage of half-length
 * h, entries h .. 2h-1 hold cos and sin of -pi k / h, k < h), those of the radix-3 pass
 * (-2 pi k / m and -4 pi k / m, k < M), those of the real packing (-pi k / m, k <= m) and
 * the work buffers. Every twiddle is computed directly, not by recurrence.
 */
function plan(m) {
  let p = plans.get(m);
  if (p) return p;
  const three = m % 3 === 0;
  const M = three ? m / 3 : m;
  const bits = Math.log2(M);
  const rev = new Uint32Array(M);
  for (let i = 1; i < M; i++) rev[i] = (rev[i >> 1] >> 1) | ((i & 1) << (bits - 1));
  const perm = three ? new Uint32Array(m) : rev;
  if (three) for (let k = 0; k < m; k++) perm[k] = (k % 3) * M + rev[(k / 3) | 0];
  const cos = new Float64Array(M);
  const sin = new Float64Array(M);
  for (let h = 1; h < M; h <<= 1) {
    for (let k = 0; k < h; k++) {
      const a = (-Math.PI * k) / h;
      cos[h + k] = Math.cos(a);
      sin[h + k] = Math.sin(a);
    }
  }
  let w = null;
  if (three) {
    w = { c1: new Float64Array(M), s1: new Float64Array(M), c2: new Float64Array(M), s2: new Float64Array(M) };
    for (let k = 0; k < M; k++) {
      const a = (-2 * Math.PI * k) / m;
      w.c1[k] = Math.cos(a);
      w.s1[k] = Math.sin(a);
      w.c2[k] = Math.cos(2 * a);
      w.s2[k] = Math.sin(2 * a);
    }
  }
  const rc = new Float64Array(m + 1);
  const rs = new Float64Array(m + 1);
  for (let k = 0; k <= m; k++) {
    const a = (-Math.PI * k) / m;
    rc[k] = Math.cos(a);
    rs[k] = Math.sin(a);
  }
  p = { m, M, perm, cos, sin, w, rc, rs, re: new Float64Array(m), im: new Float64Array(m) };
  plans.set(m, p);
  return p;
}

/**
 * In-place forward FFT of the M values of (re, im) from `o` on, in bit-reversed order:
 * e^(-2 pi i jk / M). Radix-4 passes (two radix-2 stages each: half the passes over memory),
 * the first without multiplications (twiddles 1 and -i), a radix-2 stage last if needed.
 */
function pow2(re, im, o, M, cos, sin) {
  const end = o + M;
  for (let i = o; i < end; i += 4) {
    const r0 = re[i], i0 = im[i], r1 = re[i + 1], i1 = im[i + 1];
    const r2 = re[i + 2], i2 = im[i + 2], r3 = re[i + 3], i3 = im[i + 3];
    const ar = r0 + r1, ai = i0 + i1, br = r0 - r1, bi = i0 - i1;
    const cr = r2 + r3, ci = i2 + i3, dr = r2 - r3, di = i2 - i3;
    re[i] = ar + cr; im[i] = ai + ci;
    re[i + 2] = ar - cr; im[i + 2] = ai - ci;
    re[i + 1] = br + di; im[i + 1] = bi - dr; // b + (-i) d
    re[i + 3] = br - di; im[i + 3] = bi + dr;
  }
  let h = 4;
  for (; h * 4 <= M; h <<= 2) {
    const h2 = h << 1;
    const len = h << 2;
    for (let i = o; i < end; i += len) {
      for (let k = 0; k < h; k++) {
        const w1r = cos[h + k], w1i = sin[h + k];
        const w2r = cos[h2 + k], w2i = sin[h2 + k];
        const a0 = i + k, a1 = a0 + h, a2 = a1 + h, a3 = a2 + h;
        const x0r = re[a0], x0i = im[a0], x1r = re[a1], x1i = im[a1];
        const x2r = re[a2], x2i = im[a2], x3r = re[a3], x3i = im[a3];
        // stage h: (a0, a1) and (a2, a3) with w1
        let xr = x1r * w1r - x1i * w1i;
        let xi = x1r * w1i + x1i * w1r;
        const p0r = x0r + xr, p0i = x0i + xi;
        const p1r = x0r - xr, p1i = x0i - xi;
        xr = x3r * w1r - x3i * w1i;
        xi = x3r * w1i + x3i * w1r;
        const p2r = x2r + xr, p2i = x2i + xi;
        const p3r = x2r - xr, p3i = x2i - xi;
        // stage 2h: (a0, a2) with w2, (a1, a3) with w2 (-i)
        xr = p2r * w2r - p2i * w2i;
        xi = p2r * w2i + p2i * w2r;
        re[a0] = p0r + xr; im[a0] = p0i + xi;
        re[a2] = p0r - xr; im[a2] = p0i - xi;
        const yr = p3r * w2r - p3i * w2i;
        const yi = p3r * w2i + p3i * w2r;
        re[a1] = p1r + yi; im[a1] = p1i - yr;
        re[a3] = p1r - yi; im[a3] = p1i + yr;
      }
    }
  }
  if (h < M) {
    for (let k = 0; k < h; k++) {
      const wr = cos[h + k], wi = sin[h + k];
      const a = o + k, b = a + h;
      const ar = re[a], ai = im[a], br = re[b], bi = im[b];
      const xr = br * wr - bi * wi;
      const xi = br * wi + bi * wr;
      re[b] = ar - xr; im[b] = ai - xi;
      re[a] = ar + xr; im[a] = ai + xi;
    }
  }
}

const S3 = Math.sqrt(3) / 2;

/**
 * In-place forward FFT of the plan's work buffers, laid out by `perm`; the result in
 * natural order. (Swapping the real and imaginary parts in and out makes it the inverse,
 * unscaled.) For m = 3M: three FFTs of length M, then one radix-3 pass.
 */
function transform(p) {
  const { re, im, M, cos, sin, w } = p;
  if (!w) {
    pow2(re, im, 0, M, cos, sin);
    return;
  }
  pow2(re, im, 0, M, cos, sin);
  pow2(re, im, M, M, cos, sin);
  pow2(re, im, 2 * M, M, cos, sin);
  const { c1, s1, c2, s2 } = w;
  for (let k = 0; k < M; k++) {
    const k1 = k + M, k2 = k1 + M;
    const ar = re[k], ai = im[k], xr = re[k1], xi = im[k1], yr = re[k2], yi = im[k2];
    const w1r = c1[k], w1i = s1[k], w2r = c2[k], w2i = s2[k];
    const br = xr * w1r - xi * w1i;
    const bi = xr * w1i + xi * w1r;
    const cr = yr * w2r - yi * w2i;
    const ci = yr * w2i + yi * w2r;
    // X[k + sM] = a + b w^s + c w^2s, w = e^(-2 pi i / 3) = -1/2 - i sqrt(3)/2
    const tr = br + cr, ti = bi + ci;
    const ur = ar - tr / 2, ui = ai - ti / 2;
    const vr = (bi - ci) * S3, vi = (cr - br) * S3; // (b - c) (-i sqrt(3)/2)
    re[k] = ar + tr; im[k] = ai + ti;
    re[k1] = ur + vr; im[k1] = ui + vi;
    re[k2] = ur - vr; im[k2] = ui - vi;
  }
}

/**
 * Into (sr, si): the spectrum X[0..m] of the real sequence x zero-padded to 2m, from one
 * complex FFT of length m of z = even coefficients + i odd ones. With Z = FFT(z),
 * E = (Z[k] + conj Z[m-k]) / 2 and O = (Z[k] - conj Z[m-k]) / 2i are the spectra of the
 * even and odd coefficients and X[k] = E + W^k O, W = e^(-i pi / m).
 */
function spectrum(x, p, sr, si) {
  const { m, perm, re, im, rc, rs } = p;
  const pairs = x.length >> 1;
  if (pairs < m) {
    re.fill(0);
    im.fill(0);
  }
  for (let j = 0; j < pairs; j++) {
    const r = perm[j];
    re[r] = x[2 * j];
    im[r] = x[2 * j + 1];
  }
  if (x.length & 1) re[perm[pairs]] = x[x.length - 1];
  transform(p);
  for (let k = 0; k <= m >> 1; k++) {
    const j = m - k;
    const jj = k === 0 ? 0 : j; // Z[m] is Z[0]
    const zkr = re[k], zki = im[k];
    const zjr = re[jj], zji = im[jj];
    const er = (zkr + zjr) / 2, ei = (zki - zji) / 2;
    const or = (zki + zji) / 2, oi = (zjr - zkr) / 2;
    sr[k] = er + rc[k] * or - rs[k] * oi;
    si[k] = ei + rc[k] * oi + rs[k] * or;
    // At m - k: E and O conjugated.
    sr[j] = er + rc[j] * or + rs[j] * oi;
    si[j] = -ei - rc[j] * oi + rs[j] * or;
  }
}

// The spectra of the last inputs, each with a copy of its input: an input is recognised by
// its coefficients (compared in full), never by the array it came in. An entry's buffers
// are reused by the next spectrum of the same length once it is the oldest.
const KEEP = 8;
const kept = [];

function same(e, x) {
  if (e.len !== x.length) return false;
  const c = e.x;
  for (let i = 0; i < x.length; i++) if (c[i] !== x[i]) return false;
  return true;
}

function spectrumOf(x, p) {
  for (let i = kept.length - 1; i >= 0; i--) {
    const e = kept[i];
    if (e.m === p.m && same(e, x)) {
      if (i !== kept.length - 1) kept.push(kept.splice(i, 1)[0]);
      return e;
    }
  }
  let e = kept.length >= KEEP ? kept.shift() : null;
  if (!e || e.m !== p.m) {
    e = { m: p.m, len: 0, x: new Float64Array(2 * p.m), sr: new Float64Array(p.m + 1), si: new Float64Array(p.m + 1) };
  }
  spectrum(x, p, e.sr, e.si);
  e.x.set(x);
  e.len = x.length;
  kept.push(e);
  return e;
}

/** The smallest length >= n of the form 2^a or 3 * 2^a (a >= 3), an even number. */
function length(n) {
  let two = 8;
  while (two < n) two <<= 1;
  let three = 24;
  while (three < n) three <<= 1;
  return Math.min(two, three);
}

/** The first `size` coefficients of the product of the polynomials x and y (Float64Arrays). */
export function product(x, y, size) {
  const need = x.length + y.length - 1;
  const count = Math.max(0, Math.min(size, need));
  if (!x.length || !y.length || count === 0) return new Float64Array(count);
  if (need <= 64) {
    // Short products directly (the transforms' set-up would cost more).
    const out = new Float64Array(count);
    for (let i = 0; i < x.length && i < count; i++) {
      const xi = x[i];
      for (let j = 0; j < y.length && i + j < count; j++) out[i + j] += xi * y[j];
    }
    return out;
  }
  const p = plan(length(need) >> 1);
  const { m, perm, re, im, rc, rs } = p;
  const a = spectrumOf(x, p);
  const b = y === x ? a : spectrumOf(y, p);
  const asr = a.sr, asi = a.si, bsr = b.sr, bsi = b.si;
  // P = X Y, then back to the even and odd coefficients: Z[k] = E + i O with
  // E = (P[k] + conj P[m-k]) / 2 and O = (P[k] - conj P[m-k]) W^-k / 2, laid out by `perm`
  // with real and imaginary parts swapped (so that the forward transform inverts).
  for (let k = 0; k <= m >> 1; k++) {
    const j = m - k;
    const pkr = asr[k] * bsr[k] - asi[k] * bsi[k];
    const pki = asr[k] * bsi[k] + asi[k] * bsr[k];
    const pjr = asr[j] * bsr[j] - asi[j] * bsi[j];
    const pji = asr[j] * bsi[j] + asi[j] * bsr[j];
    const er = (pkr + pjr) / 2, ei = (pki - pji) / 2;
    const dr = (pkr - pjr) / 2, di = (pki + pji) / 2;
    if (k < m) {
      // O[k] = d conj(W^k)
      const or = dr * rc[k] + di * rs[k];
      const oi = di * rc[k] - dr * rs[k];
      const r = perm[k];
      re[r] = ei + or;
      im[r] = er - oi;
    }
    if (j !== k && j < m) {
      // At m - k: E conjugated, O = -conj(d) conj(W^(m-k)).
      const or = di * rs[j] - dr * rc[j];
      const oi = di * rc[j] + dr * rs[j];
      const r = perm[j];
      re[r] = or - ei;
      im[r] = er - oi;
    }
  }
  transform(p);
  const out = new Float64Array(count);
  const scale = 1 / m;
  const half = count >> 1;
  for (let j = 0; j < half; j++) {
    // Swapped back: z = even + i odd has its real part in im and its imaginary part in re.
    out[2 * j] = im[j] * scale;
    out[2 * j + 1] = re[j] * scale;
  }
  if (count & 1) out[count - 1] = im[half] * scale;
  return out;
}
