import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

/**
 * Response serialization from the routes' Zod schemas, compiled once per route to fast-json-stringify:
 * the same fields the schema declares (unknown ones dropped), without validating each answer at run
 * time, which the Zod serializer did at twice the cost of the whole request. A schema that JSON Schema
 * cannot express falls back to JSON.stringify.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  try {
    const jsonSchema = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
  } catch {
    return (data: unknown) => JSON.stringify(data);
  }
};
