/**
 * Things that are expensive to open and can serve every message of one queue batch: a browser
 * session for PDFs, an SMTP connection for mails. Opened on first use, closed when the batch ends
 * (also when it failed), so no browser or connection outlives the consumer call.
 */
type Resource = { value: unknown; dispose(): Promise<void> };

export class BatchResources {
  private readonly open = new Map<string, Promise<Resource>>();

  /** The resource named `key`, opened by `create` on first use within this batch. */
  async get<T>(key: string, create: () => Promise<{ value: T; dispose(): Promise<void> }>): Promise<T> {
    let resource = this.open.get(key);
    if (!resource) {
      resource = create();
      this.open.set(key, resource);
      // A resource that failed to open is tried again by the next item, not remembered broken.
      resource.catch(() => this.open.delete(key));
    }
    return (await resource).value as T;
  }

  /** Drops a resource that broke (e.g. the browser crashed), so the next item opens a new one. */
  async discard(key: string): Promise<void> {
    const resource = this.open.get(key);
    this.open.delete(key);
    await resource?.then((opened) => opened.dispose()).catch(() => undefined);
  }

  async disposeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map(async (resource) => (await resource).dispose()));
  }
}
