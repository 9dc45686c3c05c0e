// Precompresses the built assets (gzip and brotli, at their highest levels,
// with Node's own zlib) so the server sends them compressed at no cost per
// request. Small files are left alone: compression would not pay.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dir = new URL('../dist/assets/', import.meta.url).pathname
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|txt|json|html)$/.test(name)) continue
  const path = join(dir, name)
  const data = readFileSync(path)
  if (statSync(path).size < 1024) continue
  writeFileSync(path + '.gz', gzipSync(data, { level: 9 }))
  writeFileSync(path + '.br', brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }))
}
