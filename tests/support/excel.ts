import { unzipSync, zipSync } from "fflate";
import { readSheet } from "read-excel-file/universal";

/**
 * The first sheet of an .xlsx download, as rows of values. read-excel-file inflates parts of
 * 512 KB or more in a Web Worker, which workerd lacks: the archive is stored uncompressed first.
 */
export async function readXlsx(response: Response) {
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
  const stored = zipSync(files, { level: 0 });
  return readSheet(stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength) as ArrayBuffer);
}
