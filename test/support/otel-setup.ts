// Loaded by `node --import` before the app, as OpenTelemetry's Node setup is: a tracer provider whose ended
// spans are printed on stdout as `span {json}` lines, and the http instrumentation. Nothing here is sevenfold's.
import { createRequire } from 'node:module';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';

/** The in-memory exporter, printing each span it is given for the test that started this process. */
class PrintingExporter extends InMemorySpanExporter {
  override export(spans: ReadableSpan[], done: Parameters<InMemorySpanExporter['export']>[1]): void {
    for (const span of spans) {
      const { name, kind, attributes } = span;
      process.stdout.write(`span ${JSON.stringify({ name, kind, attributes })}\n`);
    }
    super.export(spans, done);
  }
}

const provider = new NodeTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new PrintingExporter())],
});
// The AsyncLocalStorage context manager and W3C propagation, as the SDK's Node setup registers them.
provider.register();
registerInstrumentations({ instrumentations: [new HttpInstrumentation()] });
// node:http is a builtin that ESM imports share: loading it once here lets the instrumentation patch it in place.
createRequire(import.meta.url)('node:http');
