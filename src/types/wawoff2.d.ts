declare module 'wawoff2' {
  /** WOFF2 → the TrueType/OpenType font it holds. */
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
  /** TrueType/OpenType → WOFF2. */
  export function compress(sfnt: Uint8Array): Promise<Uint8Array>;
}
