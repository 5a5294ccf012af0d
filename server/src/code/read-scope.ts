// A value in effect while one file is read: the front ends read a file synchronously, so what its project says
// (Hibernate's configuration, MyBatis's executor) or what the reader knows of it (its import lines) is set around the
// read and restored after it, rather than handed through every call of the walk to the adapters that ask.

export class ReadScoped<T> {
  constructor(private value: T) {}

  get current(): T {
    return this.value;
  }

  /** Runs `read` with `value` in effect, restoring the value before it (reads may nest: a file read for another's). */
  run<R>(value: T, read: () => R): R {
    const before = this.value;
    this.value = value;
    try {
      return read();
    } finally {
      this.value = before;
    }
  }
}
