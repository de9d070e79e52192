// The slice of the WebAssembly API the WebAssembly kernels (the ML kernels, petriage's byte pass) use: the project's TypeScript libraries declare no WebAssembly types (they come with the DOM library, which engine code does not load).

/** A kernel instance's linear memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: unknown };
}

const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A kernel compiled from the base64 binary of its `.wasm.ts` (`WASM`). */
export function compileKernel(base64: string): object {
  return new wasm.Module(Buffer.from(base64, 'base64'));
}

/** A new instance (with its own memory) of a compiled kernel; `T` is its exports as its `.wat` declares them. */
export function instantiateKernel<T>(module: object, imports: object = {}): T {
  return new wasm.Instance(module, imports).exports as T;
}

/** Makes the memory at least `bytes` long; true when it grew (views of the old buffer are then detached). */
export function growMemory(memory: WasmMemory, bytes: number): boolean {
  const have = memory.buffer.byteLength;
  if (have >= bytes) return false;
  memory.grow(Math.ceil((bytes - have) / 65536));
  return true;
}
