/**
 * The API's types, taken from the OpenAPI document the gateway serves: `api-schema.d.ts` is
 * generated from gateway/openapi.json by openapi-typescript (`./deploy/openapi.sh`; CI's
 * `npm run api:check` fails when it drifts). The features' api files alias these and never
 * restate a schema; where the app needs a field narrower than the document says, the alias says so.
 */
import type { components, paths } from './api-schema';

/** Every schema of the document, by name (`Schemas['Booking']`). */
export type Schemas = components['schemas'];

/** The query parameters of a GET path (`Query<'/coaches/search/nearby'>`). */
export type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

/**
 * Every field present, null where the schema allows null: the gateway serialises every field of
 * an answer (it never omits one), and the forms send every field of a body.
 */
export type Complete<T> = { [K in keyof T]-?: T[K] };

/**
 * Every value of one of the document's enums, for a list on screen (a select's options), in the
 * order written: `enumValues<Schemas['CourtType']>({ basketball: true, ... })`. The values are
 * written out because the generated types are types only; the record's type makes the compiler
 * refuse the list when the document's enum gains or loses a value.
 */
export const enumValues = <T extends string>(values: Record<T, true>): T[] => Object.keys(values) as T[];
