/** A WHERE clause built from conditions whose values are always bound parameters (never spliced). */
export class Where {
  private readonly parts: string[] = [];
  readonly params: Record<string, unknown> = {};
  private n = 0;

  /** Binds a value and returns its placeholder. */
  bind(type: string, value: unknown): string {
    const name = `p${this.n++}`;
    this.params[name] = value;
    return `{${name}:${type}}`;
  }

  /** Adds a condition; `sql` gets a binder for its values. */
  and(sql: string | ((b: (type: string, value: unknown) => string) => string)): this {
    this.parts.push(typeof sql === "string" ? sql : sql((t, v) => this.bind(t, v)));
    return this;
  }

  eq(column: string, type: string, value: unknown | undefined): this {
    if (value !== undefined) this.and((b) => `${column} = ${b(type, value)}`);
    return this;
  }

  in(column: string, type: string, values: readonly unknown[] | undefined): this {
    if (values !== undefined) this.and((b) => `${column} IN ${b(`Array(${type})`, values)}`);
    return this;
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(" AND ")}` : "";
  }
}
