import { createServer, type Server } from "node:http";

/**
 * NFT metadata served over http for the scenario's tokenURIs. The documents are a pure function
 * of the path, so a server started at any later time (by tests, or by hand with
 * `npm run metadata-server -w @explorer/tests`) serves the same bytes.
 */
export const nftMetadata = (collection: string, id: string) => ({
  name: `${collection} #${id}`,
  description: `Token ${id} of the ${collection} collection, minted by the explorer's test scenario.`,
  image: `https://example.invalid/${collection}/${id}.png`,
  attributes: [
    { trait_type: "collection", value: collection },
    { trait_type: "id", value: id },
  ],
});

export const metadataPath = /^\/(nft|multi)\/([A-Za-z0-9_-]+)\/(\d+)\.json$/;

export const startMetadataServer = (port: number, host = "127.0.0.1"): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      const m = metadataPath.exec(req.url ?? "");
      if (!m) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
        return;
      }
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(nftMetadata(m[2]!, m[3]!)));
    });
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(
    process.env.METADATA_PORT ?? 18080 + Number(process.env.EXPLORER_CHAIN_PORT_SHIFT ?? 0),
  );
  startMetadataServer(port).then(() => console.log(`metadata server on http://127.0.0.1:${port}`));
}
