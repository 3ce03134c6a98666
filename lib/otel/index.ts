// `unified-billing/otel`: OpenTelemetry spans over the events hook. Its own entry point, so an app
// that does not import it bundles none of it, nor `@opentelemetry/api`.
export { otelTracing, type OtelTracing, type OtelTracingOptions } from './otel-tracing';
