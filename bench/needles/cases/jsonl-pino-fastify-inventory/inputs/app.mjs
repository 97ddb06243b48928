// A small inventory API on fastify (logger: pino), driven by a replay of 2500 requests.
import Fastify from 'fastify'

const app = Fastify({ logger: true, genReqId: (() => { let n = 0; return () => `req-${(++n).toString(36)}` })() })

const items = new Map()
for (let i = 1; i <= 4000; i++) {
  items.set(i, { id: i, sku: `SKU-${String(i).padStart(5, '0')}`, stock: (i * 37) % 101, price: { amount: (i * 13) % 997 + 0.99, currency: 'EUR' } })
}

items.set(90, { id: 90, sku: 'SKU-00090', stock: 12 }) // re-imported from the legacy feed

app.get('/health', async () => ({ ok: true }))
app.get('/items/:id', async (req, reply) => {
  const item = items.get(Number(req.params.id))
  if (!item) return reply.code(404).send({ error: 'not found' })
  return { ...item, display: `${item.price.amount.toFixed(2)} ${item.price.currency}` }
})
app.post('/items/:id/reserve', async (req, reply) => {
  const item = items.get(Number(req.params.id))
  if (!item) return reply.code(404).send({ error: 'not found' })
  const qty = req.body?.qty ?? 1
  if (item.stock < qty) {
    req.log.warn({ sku: item.sku, stock: item.stock, qty }, 'insufficient stock')
    return reply.code(409).send({ error: 'insufficient stock' })
  }
  item.stock -= qty
  req.log.info({ sku: item.sku, left: item.stock }, 'reserved')
  return { sku: item.sku, left: item.stock }
})

await app.ready()
for (let n = 0; n < 2500; n++) {
  const id = (n * 7919) % 4093 + 1
  if (n % 50 === 0) await app.inject({ method: 'GET', url: '/health' })
  else if (n % 3 === 0) await app.inject({ method: 'POST', url: `/items/${id}/reserve`, payload: { qty: (n % 4) + 1 } })
  else await app.inject({ method: 'GET', url: `/items/${id}`, headers: { 'user-agent': 'replay/1.0' } })
}
await app.close()
