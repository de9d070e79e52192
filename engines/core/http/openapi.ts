// Building blocks of the OpenAPI 3.1 documents every service generates from its zod schemas.
import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

export interface OpenApiKit {
  /** The JSON Schema of a zod schema, as the request (`input`) or the answer (`output`) sees it. */
  schemaOf(schema: z.ZodType, io?: 'input' | 'output'): JsonObject;
  /** A reference to a schema under components/schemas. */
  ref(name: string): JsonObject;
  /** An application/json content map around a schema. */
  json(schema: JsonObject): JsonObject;
  /** A response in the house error shape (components/schemas/Error). */
  errorResponse(description: string): JsonObject;
}

/** The helpers with the schema direction a service's document mostly describes. */
export function openApiKit(defaultIo: 'input' | 'output'): OpenApiKit {
  const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });
  const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
  return {
    schemaOf(schema, io = defaultIo) {
      const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
      delete out['$schema'];
      return out;
    },
    ref,
    json,
    errorResponse: (description) => ({ description, content: json(ref('Error')) }),
  };
}
