var __defProp = Object.defineProperty;
var __returnValue = (v) => v;
function __exportSetter(name, newValue) {
  this[name] = __returnValue.bind(null, newValue);
}
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, {
      get: all[name],
      enumerable: true,
      configurable: true,
      set: __exportSetter.bind(all, name)
    });
};

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/type/type.mjs
var exports_type3 = {};
__export(exports_type3, {
  Any: () => Any,
  Argument: () => Argument,
  Array: () => Array2,
  AsyncIterator: () => AsyncIterator,
  Awaited: () => Awaited,
  BigInt: () => BigInt2,
  Boolean: () => Boolean2,
  Capitalize: () => Capitalize,
  Composite: () => Composite,
  Const: () => Const,
  Constructor: () => Constructor,
  ConstructorParameters: () => ConstructorParameters,
  Date: () => Date2,
  Enum: () => Enum,
  Exclude: () => Exclude,
  Extends: () => Extends,
  Extract: () => Extract,
  Function: () => Function,
  Index: () => Index,
  InstanceType: () => InstanceType,
  Instantiate: () => Instantiate,
  Integer: () => Integer,
  Intersect: () => Intersect,
  Iterator: () => Iterator,
  KeyOf: () => KeyOf,
  Literal: () => Literal,
  Lowercase: () => Lowercase,
  Mapped: () => Mapped,
  Module: () => Module,
  Never: () => Never,
  Not: () => Not2,
  Null: () => Null,
  Number: () => Number2,
  Object: () => Object2,
  Omit: () => Omit,
  Optional: () => Optional,
  Parameters: () => Parameters,
  Partial: () => Partial,
  Pick: () => Pick,
  Promise: () => Promise2,
  Readonly: () => Readonly,
  ReadonlyOptional: () => ReadonlyOptional,
  Record: () => Record,
  Recursive: () => Recursive,
  Ref: () => Ref,
  RegExp: () => RegExp2,
  Required: () => Required,
  Rest: () => Rest,
  ReturnType: () => ReturnType,
  String: () => String2,
  Symbol: () => Symbol2,
  TemplateLiteral: () => TemplateLiteral,
  Transform: () => Transform,
  Tuple: () => Tuple,
  Uint8Array: () => Uint8Array2,
  Uncapitalize: () => Uncapitalize,
  Undefined: () => Undefined,
  Union: () => Union,
  Unknown: () => Unknown,
  Unsafe: () => Unsafe,
  Uppercase: () => Uppercase,
  Void: () => Void
});

// actions/notify/src/main.ts
import { appendFileSync } from "node:fs";

// packages/client/src/duration.ts
function describeDuration(ms) {
  const seconds = ms / 1000;
  return `${seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds)} s`;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/guard/value.mjs
function IsAsyncIterator(value) {
  return IsObject(value) && !IsArray(value) && !IsUint8Array(value) && Symbol.asyncIterator in value;
}
function IsArray(value) {
  return Array.isArray(value);
}
function IsBigInt(value) {
  return typeof value === "bigint";
}
function IsBoolean(value) {
  return typeof value === "boolean";
}
function IsDate(value) {
  return value instanceof globalThis.Date;
}
function IsFunction(value) {
  return typeof value === "function";
}
function IsIterator(value) {
  return IsObject(value) && !IsArray(value) && !IsUint8Array(value) && Symbol.iterator in value;
}
function IsNull(value) {
  return value === null;
}
function IsNumber(value) {
  return typeof value === "number";
}
function IsObject(value) {
  return typeof value === "object" && value !== null;
}
function IsRegExp(value) {
  return value instanceof globalThis.RegExp;
}
function IsString(value) {
  return typeof value === "string";
}
function IsSymbol(value) {
  return typeof value === "symbol";
}
function IsUint8Array(value) {
  return value instanceof globalThis.Uint8Array;
}
function IsUndefined(value) {
  return value === undefined;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/clone/value.mjs
function ArrayType(value) {
  return value.map((value) => Visit(value));
}
function DateType(value) {
  return new Date(value.getTime());
}
function Uint8ArrayType(value) {
  return new Uint8Array(value);
}
function RegExpType(value) {
  return new RegExp(value.source, value.flags);
}
function ObjectType(value) {
  const result = {};
  for (const key of Object.getOwnPropertyNames(value)) {
    result[key] = Visit(value[key]);
  }
  for (const key of Object.getOwnPropertySymbols(value)) {
    result[key] = Visit(value[key]);
  }
  return result;
}
function Visit(value) {
  return IsArray(value) ? ArrayType(value) : IsDate(value) ? DateType(value) : IsUint8Array(value) ? Uint8ArrayType(value) : IsRegExp(value) ? RegExpType(value) : IsObject(value) ? ObjectType(value) : value;
}
function Clone(value) {
  return Visit(value);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/clone/type.mjs
function CloneType(schema, options) {
  return options === undefined ? Clone(schema) : Clone({ ...options, ...schema });
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/value/guard/guard.mjs
function IsAsyncIterator2(value) {
  return IsObject2(value) && globalThis.Symbol.asyncIterator in value;
}
function IsIterator2(value) {
  return IsObject2(value) && globalThis.Symbol.iterator in value;
}
function IsPromise(value) {
  return value instanceof globalThis.Promise;
}
function IsDate2(value) {
  return value instanceof Date && globalThis.Number.isFinite(value.getTime());
}
function IsUint8Array2(value) {
  return value instanceof globalThis.Uint8Array;
}
function IsObject2(value) {
  return value !== null && typeof value === "object";
}
function IsArray2(value) {
  return globalThis.Array.isArray(value) && !globalThis.ArrayBuffer.isView(value);
}
function IsUndefined2(value) {
  return value === undefined;
}
function IsNull2(value) {
  return value === null;
}
function IsBoolean2(value) {
  return typeof value === "boolean";
}
function IsNumber2(value) {
  return typeof value === "number";
}
function IsInteger(value) {
  return globalThis.Number.isInteger(value);
}
function IsBigInt2(value) {
  return typeof value === "bigint";
}
function IsString2(value) {
  return typeof value === "string";
}
function IsFunction2(value) {
  return typeof value === "function";
}
function IsSymbol2(value) {
  return typeof value === "symbol";
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/system/policy.mjs
var TypeSystemPolicy;
(function(TypeSystemPolicy) {
  TypeSystemPolicy.InstanceMode = "default";
  TypeSystemPolicy.ExactOptionalPropertyTypes = false;
  TypeSystemPolicy.AllowArrayObject = false;
  TypeSystemPolicy.AllowNaN = false;
  TypeSystemPolicy.AllowNullVoid = false;
  function IsExactOptionalProperty(value, key) {
    return TypeSystemPolicy.ExactOptionalPropertyTypes ? key in value : value[key] !== undefined;
  }
  TypeSystemPolicy.IsExactOptionalProperty = IsExactOptionalProperty;
  function IsObjectLike(value) {
    const isObject = IsObject2(value);
    return TypeSystemPolicy.AllowArrayObject ? isObject : isObject && !IsArray2(value);
  }
  TypeSystemPolicy.IsObjectLike = IsObjectLike;
  function IsRecordLike(value) {
    return IsObjectLike(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
  }
  TypeSystemPolicy.IsRecordLike = IsRecordLike;
  function IsNumberLike(value) {
    return TypeSystemPolicy.AllowNaN ? IsNumber2(value) : Number.isFinite(value);
  }
  TypeSystemPolicy.IsNumberLike = IsNumberLike;
  function IsVoidLike(value) {
    const isUndefined = IsUndefined2(value);
    return TypeSystemPolicy.AllowNullVoid ? isUndefined || value === null : isUndefined;
  }
  TypeSystemPolicy.IsVoidLike = IsVoidLike;
})(TypeSystemPolicy || (TypeSystemPolicy = {}));

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/create/immutable.mjs
function ImmutableArray(value) {
  return globalThis.Object.freeze(value).map((value) => Immutable(value));
}
function ImmutableDate(value) {
  return value;
}
function ImmutableUint8Array(value) {
  return value;
}
function ImmutableRegExp(value) {
  return value;
}
function ImmutableObject(value) {
  const result = {};
  for (const key of Object.getOwnPropertyNames(value)) {
    result[key] = Immutable(value[key]);
  }
  for (const key of Object.getOwnPropertySymbols(value)) {
    result[key] = Immutable(value[key]);
  }
  return globalThis.Object.freeze(result);
}
function Immutable(value) {
  return IsArray(value) ? ImmutableArray(value) : IsDate(value) ? ImmutableDate(value) : IsUint8Array(value) ? ImmutableUint8Array(value) : IsRegExp(value) ? ImmutableRegExp(value) : IsObject(value) ? ImmutableObject(value) : value;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/create/type.mjs
function CreateType(schema, options) {
  const result = options !== undefined ? { ...options, ...schema } : schema;
  switch (TypeSystemPolicy.InstanceMode) {
    case "freeze":
      return Immutable(result);
    case "clone":
      return Clone(result);
    default:
      return result;
  }
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/error/error.mjs
class TypeBoxError extends Error {
  constructor(message) {
    super(message);
  }
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/symbols/symbols.mjs
var TransformKind = Symbol.for("TypeBox.Transform");
var ReadonlyKind = Symbol.for("TypeBox.Readonly");
var OptionalKind = Symbol.for("TypeBox.Optional");
var Hint = Symbol.for("TypeBox.Hint");
var Kind = Symbol.for("TypeBox.Kind");

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/guard/kind.mjs
function IsReadonly(value) {
  return IsObject(value) && value[ReadonlyKind] === "Readonly";
}
function IsOptional(value) {
  return IsObject(value) && value[OptionalKind] === "Optional";
}
function IsAny(value) {
  return IsKindOf(value, "Any");
}
function IsArgument(value) {
  return IsKindOf(value, "Argument");
}
function IsArray3(value) {
  return IsKindOf(value, "Array");
}
function IsAsyncIterator3(value) {
  return IsKindOf(value, "AsyncIterator");
}
function IsBigInt3(value) {
  return IsKindOf(value, "BigInt");
}
function IsBoolean3(value) {
  return IsKindOf(value, "Boolean");
}
function IsComputed(value) {
  return IsKindOf(value, "Computed");
}
function IsConstructor(value) {
  return IsKindOf(value, "Constructor");
}
function IsDate3(value) {
  return IsKindOf(value, "Date");
}
function IsFunction3(value) {
  return IsKindOf(value, "Function");
}
function IsInteger2(value) {
  return IsKindOf(value, "Integer");
}
function IsIntersect(value) {
  return IsKindOf(value, "Intersect");
}
function IsIterator3(value) {
  return IsKindOf(value, "Iterator");
}
function IsKindOf(value, kind) {
  return IsObject(value) && Kind in value && value[Kind] === kind;
}
function IsLiteralValue(value) {
  return IsBoolean(value) || IsNumber(value) || IsString(value);
}
function IsLiteral(value) {
  return IsKindOf(value, "Literal");
}
function IsMappedKey(value) {
  return IsKindOf(value, "MappedKey");
}
function IsMappedResult(value) {
  return IsKindOf(value, "MappedResult");
}
function IsNever(value) {
  return IsKindOf(value, "Never");
}
function IsNot(value) {
  return IsKindOf(value, "Not");
}
function IsNull3(value) {
  return IsKindOf(value, "Null");
}
function IsNumber3(value) {
  return IsKindOf(value, "Number");
}
function IsObject3(value) {
  return IsKindOf(value, "Object");
}
function IsPromise2(value) {
  return IsKindOf(value, "Promise");
}
function IsRecord(value) {
  return IsKindOf(value, "Record");
}
function IsRef(value) {
  return IsKindOf(value, "Ref");
}
function IsRegExp2(value) {
  return IsKindOf(value, "RegExp");
}
function IsString3(value) {
  return IsKindOf(value, "String");
}
function IsSymbol3(value) {
  return IsKindOf(value, "Symbol");
}
function IsTemplateLiteral(value) {
  return IsKindOf(value, "TemplateLiteral");
}
function IsThis(value) {
  return IsKindOf(value, "This");
}
function IsTransform(value) {
  return IsObject(value) && TransformKind in value;
}
function IsTuple(value) {
  return IsKindOf(value, "Tuple");
}
function IsUndefined3(value) {
  return IsKindOf(value, "Undefined");
}
function IsUnion(value) {
  return IsKindOf(value, "Union");
}
function IsUint8Array3(value) {
  return IsKindOf(value, "Uint8Array");
}
function IsUnknown(value) {
  return IsKindOf(value, "Unknown");
}
function IsUnsafe(value) {
  return IsKindOf(value, "Unsafe");
}
function IsVoid(value) {
  return IsKindOf(value, "Void");
}
function IsKind(value) {
  return IsObject(value) && Kind in value && IsString(value[Kind]);
}
function IsSchema(value) {
  return IsAny(value) || IsArgument(value) || IsArray3(value) || IsBoolean3(value) || IsBigInt3(value) || IsAsyncIterator3(value) || IsComputed(value) || IsConstructor(value) || IsDate3(value) || IsFunction3(value) || IsInteger2(value) || IsIntersect(value) || IsIterator3(value) || IsLiteral(value) || IsMappedKey(value) || IsMappedResult(value) || IsNever(value) || IsNot(value) || IsNull3(value) || IsNumber3(value) || IsObject3(value) || IsPromise2(value) || IsRecord(value) || IsRef(value) || IsRegExp2(value) || IsString3(value) || IsSymbol3(value) || IsTemplateLiteral(value) || IsThis(value) || IsTuple(value) || IsUndefined3(value) || IsUnion(value) || IsUint8Array3(value) || IsUnknown(value) || IsUnsafe(value) || IsVoid(value) || IsKind(value);
}
// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/guard/type.mjs
var KnownTypes = [
  "Argument",
  "Any",
  "Array",
  "AsyncIterator",
  "BigInt",
  "Boolean",
  "Computed",
  "Constructor",
  "Date",
  "Enum",
  "Function",
  "Integer",
  "Intersect",
  "Iterator",
  "Literal",
  "MappedKey",
  "MappedResult",
  "Not",
  "Null",
  "Number",
  "Object",
  "Promise",
  "Record",
  "Ref",
  "RegExp",
  "String",
  "Symbol",
  "TemplateLiteral",
  "This",
  "Tuple",
  "Undefined",
  "Union",
  "Uint8Array",
  "Unknown",
  "Void"
];
function IsPattern(value) {
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
}
function IsControlCharacterFree(value) {
  if (!IsString(value))
    return false;
  for (let i = 0;i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 7 && code <= 13 || code === 27 || code === 127) {
      return false;
    }
  }
  return true;
}
function IsAdditionalProperties(value) {
  return IsOptionalBoolean(value) || IsSchema2(value);
}
function IsOptionalBigInt(value) {
  return IsUndefined(value) || IsBigInt(value);
}
function IsOptionalNumber(value) {
  return IsUndefined(value) || IsNumber(value);
}
function IsOptionalBoolean(value) {
  return IsUndefined(value) || IsBoolean(value);
}
function IsOptionalString(value) {
  return IsUndefined(value) || IsString(value);
}
function IsOptionalPattern(value) {
  return IsUndefined(value) || IsString(value) && IsControlCharacterFree(value) && IsPattern(value);
}
function IsOptionalFormat(value) {
  return IsUndefined(value) || IsString(value) && IsControlCharacterFree(value);
}
function IsOptionalSchema(value) {
  return IsUndefined(value) || IsSchema2(value);
}
function IsOptional2(value) {
  return IsObject(value) && value[OptionalKind] === "Optional";
}
function IsAny2(value) {
  return IsKindOf2(value, "Any") && IsOptionalString(value.$id);
}
function IsArgument2(value) {
  return IsKindOf2(value, "Argument") && IsNumber(value.index);
}
function IsArray4(value) {
  return IsKindOf2(value, "Array") && value.type === "array" && IsOptionalString(value.$id) && IsSchema2(value.items) && IsOptionalNumber(value.minItems) && IsOptionalNumber(value.maxItems) && IsOptionalBoolean(value.uniqueItems) && IsOptionalSchema(value.contains) && IsOptionalNumber(value.minContains) && IsOptionalNumber(value.maxContains);
}
function IsAsyncIterator4(value) {
  return IsKindOf2(value, "AsyncIterator") && value.type === "AsyncIterator" && IsOptionalString(value.$id) && IsSchema2(value.items);
}
function IsBigInt4(value) {
  return IsKindOf2(value, "BigInt") && value.type === "bigint" && IsOptionalString(value.$id) && IsOptionalBigInt(value.exclusiveMaximum) && IsOptionalBigInt(value.exclusiveMinimum) && IsOptionalBigInt(value.maximum) && IsOptionalBigInt(value.minimum) && IsOptionalBigInt(value.multipleOf);
}
function IsBoolean4(value) {
  return IsKindOf2(value, "Boolean") && value.type === "boolean" && IsOptionalString(value.$id);
}
function IsComputed2(value) {
  return IsKindOf2(value, "Computed") && IsString(value.target) && IsArray(value.parameters) && value.parameters.every((schema) => IsSchema2(schema));
}
function IsConstructor2(value) {
  return IsKindOf2(value, "Constructor") && value.type === "Constructor" && IsOptionalString(value.$id) && IsArray(value.parameters) && value.parameters.every((schema) => IsSchema2(schema)) && IsSchema2(value.returns);
}
function IsDate4(value) {
  return IsKindOf2(value, "Date") && value.type === "Date" && IsOptionalString(value.$id) && IsOptionalNumber(value.exclusiveMaximumTimestamp) && IsOptionalNumber(value.exclusiveMinimumTimestamp) && IsOptionalNumber(value.maximumTimestamp) && IsOptionalNumber(value.minimumTimestamp) && IsOptionalNumber(value.multipleOfTimestamp);
}
function IsFunction4(value) {
  return IsKindOf2(value, "Function") && value.type === "Function" && IsOptionalString(value.$id) && IsArray(value.parameters) && value.parameters.every((schema) => IsSchema2(schema)) && IsSchema2(value.returns);
}
function IsInteger3(value) {
  return IsKindOf2(value, "Integer") && value.type === "integer" && IsOptionalString(value.$id) && IsOptionalNumber(value.exclusiveMaximum) && IsOptionalNumber(value.exclusiveMinimum) && IsOptionalNumber(value.maximum) && IsOptionalNumber(value.minimum) && IsOptionalNumber(value.multipleOf);
}
function IsProperties(value) {
  return IsObject(value) && Object.entries(value).every(([key, schema]) => IsControlCharacterFree(key) && IsSchema2(schema));
}
function IsIntersect2(value) {
  return IsKindOf2(value, "Intersect") && (IsString(value.type) && value.type !== "object" ? false : true) && IsArray(value.allOf) && value.allOf.every((schema) => IsSchema2(schema) && !IsTransform2(schema)) && IsOptionalString(value.type) && (IsOptionalBoolean(value.unevaluatedProperties) || IsOptionalSchema(value.unevaluatedProperties)) && IsOptionalString(value.$id);
}
function IsIterator4(value) {
  return IsKindOf2(value, "Iterator") && value.type === "Iterator" && IsOptionalString(value.$id) && IsSchema2(value.items);
}
function IsKindOf2(value, kind) {
  return IsObject(value) && Kind in value && value[Kind] === kind;
}
function IsLiteralString(value) {
  return IsLiteral2(value) && IsString(value.const);
}
function IsLiteralNumber(value) {
  return IsLiteral2(value) && IsNumber(value.const);
}
function IsLiteralBoolean(value) {
  return IsLiteral2(value) && IsBoolean(value.const);
}
function IsLiteral2(value) {
  return IsKindOf2(value, "Literal") && IsOptionalString(value.$id) && IsLiteralValue2(value.const);
}
function IsLiteralValue2(value) {
  return IsBoolean(value) || IsNumber(value) || IsString(value);
}
function IsMappedKey2(value) {
  return IsKindOf2(value, "MappedKey") && IsArray(value.keys) && value.keys.every((key) => IsNumber(key) || IsString(key));
}
function IsMappedResult2(value) {
  return IsKindOf2(value, "MappedResult") && IsProperties(value.properties);
}
function IsNever2(value) {
  return IsKindOf2(value, "Never") && IsObject(value.not) && Object.getOwnPropertyNames(value.not).length === 0;
}
function IsNot2(value) {
  return IsKindOf2(value, "Not") && IsSchema2(value.not);
}
function IsNull4(value) {
  return IsKindOf2(value, "Null") && value.type === "null" && IsOptionalString(value.$id);
}
function IsNumber4(value) {
  return IsKindOf2(value, "Number") && value.type === "number" && IsOptionalString(value.$id) && IsOptionalNumber(value.exclusiveMaximum) && IsOptionalNumber(value.exclusiveMinimum) && IsOptionalNumber(value.maximum) && IsOptionalNumber(value.minimum) && IsOptionalNumber(value.multipleOf);
}
function IsObject4(value) {
  return IsKindOf2(value, "Object") && value.type === "object" && IsOptionalString(value.$id) && IsProperties(value.properties) && IsAdditionalProperties(value.additionalProperties) && IsOptionalNumber(value.minProperties) && IsOptionalNumber(value.maxProperties);
}
function IsPromise3(value) {
  return IsKindOf2(value, "Promise") && value.type === "Promise" && IsOptionalString(value.$id) && IsSchema2(value.item);
}
function IsRecord2(value) {
  return IsKindOf2(value, "Record") && value.type === "object" && IsOptionalString(value.$id) && IsAdditionalProperties(value.additionalProperties) && IsObject(value.patternProperties) && ((schema) => {
    const keys = Object.getOwnPropertyNames(schema.patternProperties);
    return keys.length === 1 && IsPattern(keys[0]) && IsObject(schema.patternProperties) && IsSchema2(schema.patternProperties[keys[0]]);
  })(value);
}
function IsRef2(value) {
  return IsKindOf2(value, "Ref") && IsOptionalString(value.$id) && IsString(value.$ref);
}
function IsRegExp3(value) {
  return IsKindOf2(value, "RegExp") && IsOptionalString(value.$id) && IsString(value.source) && IsString(value.flags) && IsOptionalNumber(value.maxLength) && IsOptionalNumber(value.minLength);
}
function IsString4(value) {
  return IsKindOf2(value, "String") && value.type === "string" && IsOptionalString(value.$id) && IsOptionalNumber(value.minLength) && IsOptionalNumber(value.maxLength) && IsOptionalPattern(value.pattern) && IsOptionalFormat(value.format);
}
function IsSymbol4(value) {
  return IsKindOf2(value, "Symbol") && value.type === "symbol" && IsOptionalString(value.$id);
}
function IsTemplateLiteral2(value) {
  return IsKindOf2(value, "TemplateLiteral") && value.type === "string" && IsString(value.pattern) && value.pattern[0] === "^" && value.pattern[value.pattern.length - 1] === "$";
}
function IsThis2(value) {
  return IsKindOf2(value, "This") && IsOptionalString(value.$id) && IsString(value.$ref);
}
function IsTransform2(value) {
  return IsObject(value) && TransformKind in value;
}
function IsTuple2(value) {
  return IsKindOf2(value, "Tuple") && value.type === "array" && IsOptionalString(value.$id) && IsNumber(value.minItems) && IsNumber(value.maxItems) && value.minItems === value.maxItems && (IsUndefined(value.items) && IsUndefined(value.additionalItems) && value.minItems === 0 || IsArray(value.items) && value.items.every((schema) => IsSchema2(schema)));
}
function IsUndefined4(value) {
  return IsKindOf2(value, "Undefined") && value.type === "undefined" && IsOptionalString(value.$id);
}
function IsUnion2(value) {
  return IsKindOf2(value, "Union") && IsOptionalString(value.$id) && IsObject(value) && IsArray(value.anyOf) && value.anyOf.every((schema) => IsSchema2(schema));
}
function IsUint8Array4(value) {
  return IsKindOf2(value, "Uint8Array") && value.type === "Uint8Array" && IsOptionalString(value.$id) && IsOptionalNumber(value.minByteLength) && IsOptionalNumber(value.maxByteLength);
}
function IsUnknown2(value) {
  return IsKindOf2(value, "Unknown") && IsOptionalString(value.$id);
}
function IsUnsafe2(value) {
  return IsKindOf2(value, "Unsafe");
}
function IsVoid2(value) {
  return IsKindOf2(value, "Void") && value.type === "void" && IsOptionalString(value.$id);
}
function IsKind2(value) {
  return IsObject(value) && Kind in value && IsString(value[Kind]) && !KnownTypes.includes(value[Kind]);
}
function IsSchema2(value) {
  return IsObject(value) && (IsAny2(value) || IsArgument2(value) || IsArray4(value) || IsBoolean4(value) || IsBigInt4(value) || IsAsyncIterator4(value) || IsComputed2(value) || IsConstructor2(value) || IsDate4(value) || IsFunction4(value) || IsInteger3(value) || IsIntersect2(value) || IsIterator4(value) || IsLiteral2(value) || IsMappedKey2(value) || IsMappedResult2(value) || IsNever2(value) || IsNot2(value) || IsNull4(value) || IsNumber4(value) || IsObject4(value) || IsPromise3(value) || IsRecord2(value) || IsRef2(value) || IsRegExp3(value) || IsString4(value) || IsSymbol4(value) || IsTemplateLiteral2(value) || IsThis2(value) || IsTuple2(value) || IsUndefined4(value) || IsUnion2(value) || IsUint8Array4(value) || IsUnknown2(value) || IsUnsafe2(value) || IsVoid2(value) || IsKind2(value));
}
// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/patterns/patterns.mjs
var PatternBoolean = "(true|false)";
var PatternNumber = "(0|[1-9][0-9]*)";
var PatternString = "(.*)";
var PatternNever = "(?!.*)";
var PatternBooleanExact = `^${PatternBoolean}$`;
var PatternNumberExact = `^${PatternNumber}$`;
var PatternStringExact = `^${PatternString}$`;
var PatternNeverExact = `^${PatternNever}$`;

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/registry/format.mjs
var map = new Map;
function Has(format) {
  return map.has(format);
}
function Set2(format, func) {
  map.set(format, func);
}
function Get(format) {
  return map.get(format);
}
// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/registry/type.mjs
var map2 = new Map;
function Has2(kind) {
  return map2.has(kind);
}
function Get2(kind) {
  return map2.get(kind);
}
// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/sets/set.mjs
function SetIncludes(T, S) {
  return T.includes(S);
}
function SetDistinct(T) {
  return [...new Set(T)];
}
function SetIntersect(T, S) {
  return T.filter((L) => S.includes(L));
}
function SetIntersectManyResolve(T, Init) {
  return T.reduce((Acc, L) => {
    return SetIntersect(Acc, L);
  }, Init);
}
function SetIntersectMany(T) {
  return T.length === 1 ? T[0] : T.length > 1 ? SetIntersectManyResolve(T.slice(1), T[0]) : [];
}
function SetUnionMany(T) {
  const Acc = [];
  for (const L of T)
    Acc.push(...L);
  return Acc;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/any/any.mjs
function Any(options) {
  return CreateType({ [Kind]: "Any" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/array/array.mjs
function Array2(items, options) {
  return CreateType({ [Kind]: "Array", type: "array", items }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/argument/argument.mjs
function Argument(index) {
  return CreateType({ [Kind]: "Argument", index });
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/async-iterator/async-iterator.mjs
function AsyncIterator(items, options) {
  return CreateType({ [Kind]: "AsyncIterator", type: "AsyncIterator", items }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/computed/computed.mjs
function Computed(target, parameters, options) {
  return CreateType({ [Kind]: "Computed", target, parameters }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/discard/discard.mjs
function DiscardKey(value, key) {
  const { [key]: _, ...rest } = value;
  return rest;
}
function Discard(value, keys) {
  return keys.reduce((acc, key) => DiscardKey(acc, key), value);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/never/never.mjs
function Never(options) {
  return CreateType({ [Kind]: "Never", not: {} }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/mapped/mapped-result.mjs
function MappedResult(properties) {
  return CreateType({
    [Kind]: "MappedResult",
    properties
  });
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/constructor/constructor.mjs
function Constructor(parameters, returns, options) {
  return CreateType({ [Kind]: "Constructor", type: "Constructor", parameters, returns }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/function/function.mjs
function Function(parameters, returns, options) {
  return CreateType({ [Kind]: "Function", type: "Function", parameters, returns }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/union/union-create.mjs
function UnionCreate(T, options) {
  return CreateType({ [Kind]: "Union", anyOf: T }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/union/union-evaluated.mjs
function IsUnionOptional(types) {
  return types.some((type) => IsOptional(type));
}
function RemoveOptionalFromRest(types) {
  return types.map((left) => IsOptional(left) ? RemoveOptionalFromType(left) : left);
}
function RemoveOptionalFromType(T) {
  return Discard(T, [OptionalKind]);
}
function ResolveUnion(types, options) {
  const isOptional = IsUnionOptional(types);
  return isOptional ? Optional(UnionCreate(RemoveOptionalFromRest(types), options)) : UnionCreate(RemoveOptionalFromRest(types), options);
}
function UnionEvaluated(T, options) {
  return T.length === 1 ? CreateType(T[0], options) : T.length === 0 ? Never(options) : ResolveUnion(T, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/union/union.mjs
function Union(types, options) {
  return types.length === 0 ? Never(options) : types.length === 1 ? CreateType(types[0], options) : UnionCreate(types, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/template-literal/parse.mjs
class TemplateLiteralParserError extends TypeBoxError {
}
function Unescape(pattern) {
  return pattern.replace(/\\\$/g, "$").replace(/\\\*/g, "*").replace(/\\\^/g, "^").replace(/\\\|/g, "|").replace(/\\\(/g, "(").replace(/\\\)/g, ")");
}
function IsNonEscaped(pattern, index, char) {
  return pattern[index] === char && pattern.charCodeAt(index - 1) !== 92;
}
function IsOpenParen(pattern, index) {
  return IsNonEscaped(pattern, index, "(");
}
function IsCloseParen(pattern, index) {
  return IsNonEscaped(pattern, index, ")");
}
function IsSeparator(pattern, index) {
  return IsNonEscaped(pattern, index, "|");
}
function IsGroup(pattern) {
  if (!(IsOpenParen(pattern, 0) && IsCloseParen(pattern, pattern.length - 1)))
    return false;
  let count = 0;
  for (let index = 0;index < pattern.length; index++) {
    if (IsOpenParen(pattern, index))
      count += 1;
    if (IsCloseParen(pattern, index))
      count -= 1;
    if (count === 0 && index !== pattern.length - 1)
      return false;
  }
  return true;
}
function InGroup(pattern) {
  return pattern.slice(1, pattern.length - 1);
}
function IsPrecedenceOr(pattern) {
  let count = 0;
  for (let index = 0;index < pattern.length; index++) {
    if (IsOpenParen(pattern, index))
      count += 1;
    if (IsCloseParen(pattern, index))
      count -= 1;
    if (IsSeparator(pattern, index) && count === 0)
      return true;
  }
  return false;
}
function IsPrecedenceAnd(pattern) {
  for (let index = 0;index < pattern.length; index++) {
    if (IsOpenParen(pattern, index))
      return true;
  }
  return false;
}
function Or(pattern) {
  let [count, start] = [0, 0];
  const expressions = [];
  for (let index = 0;index < pattern.length; index++) {
    if (IsOpenParen(pattern, index))
      count += 1;
    if (IsCloseParen(pattern, index))
      count -= 1;
    if (IsSeparator(pattern, index) && count === 0) {
      const range = pattern.slice(start, index);
      if (range.length > 0)
        expressions.push(TemplateLiteralParse(range));
      start = index + 1;
    }
  }
  const range = pattern.slice(start);
  if (range.length > 0)
    expressions.push(TemplateLiteralParse(range));
  if (expressions.length === 0)
    return { type: "const", const: "" };
  if (expressions.length === 1)
    return expressions[0];
  return { type: "or", expr: expressions };
}
function And(pattern) {
  function Group(value, index) {
    if (!IsOpenParen(value, index))
      throw new TemplateLiteralParserError(`TemplateLiteralParser: Index must point to open parens`);
    let count = 0;
    for (let scan = index;scan < value.length; scan++) {
      if (IsOpenParen(value, scan))
        count += 1;
      if (IsCloseParen(value, scan))
        count -= 1;
      if (count === 0)
        return [index, scan];
    }
    throw new TemplateLiteralParserError(`TemplateLiteralParser: Unclosed group parens in expression`);
  }
  function Range(pattern, index) {
    for (let scan = index;scan < pattern.length; scan++) {
      if (IsOpenParen(pattern, scan))
        return [index, scan];
    }
    return [index, pattern.length];
  }
  const expressions = [];
  for (let index = 0;index < pattern.length; index++) {
    if (IsOpenParen(pattern, index)) {
      const [start, end] = Group(pattern, index);
      const range = pattern.slice(start, end + 1);
      expressions.push(TemplateLiteralParse(range));
      index = end;
    } else {
      const [start, end] = Range(pattern, index);
      const range = pattern.slice(start, end);
      if (range.length > 0)
        expressions.push(TemplateLiteralParse(range));
      index = end - 1;
    }
  }
  return expressions.length === 0 ? { type: "const", const: "" } : expressions.length === 1 ? expressions[0] : { type: "and", expr: expressions };
}
function TemplateLiteralParse(pattern) {
  return IsGroup(pattern) ? TemplateLiteralParse(InGroup(pattern)) : IsPrecedenceOr(pattern) ? Or(pattern) : IsPrecedenceAnd(pattern) ? And(pattern) : { type: "const", const: Unescape(pattern) };
}
function TemplateLiteralParseExact(pattern) {
  return TemplateLiteralParse(pattern.slice(1, pattern.length - 1));
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/template-literal/finite.mjs
class TemplateLiteralFiniteError extends TypeBoxError {
}
function IsNumberExpression(expression) {
  return expression.type === "or" && expression.expr.length === 2 && expression.expr[0].type === "const" && expression.expr[0].const === "0" && expression.expr[1].type === "const" && expression.expr[1].const === "[1-9][0-9]*";
}
function IsBooleanExpression(expression) {
  return expression.type === "or" && expression.expr.length === 2 && expression.expr[0].type === "const" && expression.expr[0].const === "true" && expression.expr[1].type === "const" && expression.expr[1].const === "false";
}
function IsStringExpression(expression) {
  return expression.type === "const" && expression.const === ".*";
}
function IsTemplateLiteralExpressionFinite(expression) {
  return IsNumberExpression(expression) || IsStringExpression(expression) ? false : IsBooleanExpression(expression) ? true : expression.type === "and" ? expression.expr.every((expr) => IsTemplateLiteralExpressionFinite(expr)) : expression.type === "or" ? expression.expr.every((expr) => IsTemplateLiteralExpressionFinite(expr)) : expression.type === "const" ? true : (() => {
    throw new TemplateLiteralFiniteError(`Unknown expression type`);
  })();
}
function IsTemplateLiteralFinite(schema) {
  const expression = TemplateLiteralParseExact(schema.pattern);
  return IsTemplateLiteralExpressionFinite(expression);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/template-literal/generate.mjs
class TemplateLiteralGenerateError extends TypeBoxError {
}
function* GenerateReduce(buffer) {
  if (buffer.length === 1)
    return yield* buffer[0];
  for (const left of buffer[0]) {
    for (const right of GenerateReduce(buffer.slice(1))) {
      yield `${left}${right}`;
    }
  }
}
function* GenerateAnd(expression) {
  return yield* GenerateReduce(expression.expr.map((expr) => [...TemplateLiteralExpressionGenerate(expr)]));
}
function* GenerateOr(expression) {
  for (const expr of expression.expr)
    yield* TemplateLiteralExpressionGenerate(expr);
}
function* GenerateConst(expression) {
  return yield expression.const;
}
function* TemplateLiteralExpressionGenerate(expression) {
  return expression.type === "and" ? yield* GenerateAnd(expression) : expression.type === "or" ? yield* GenerateOr(expression) : expression.type === "const" ? yield* GenerateConst(expression) : (() => {
    throw new TemplateLiteralGenerateError("Unknown expression");
  })();
}
function TemplateLiteralGenerate(schema) {
  const expression = TemplateLiteralParseExact(schema.pattern);
  return IsTemplateLiteralExpressionFinite(expression) ? [...TemplateLiteralExpressionGenerate(expression)] : [];
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/literal/literal.mjs
function Literal(value, options) {
  return CreateType({
    [Kind]: "Literal",
    const: value,
    type: typeof value
  }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/boolean/boolean.mjs
function Boolean2(options) {
  return CreateType({ [Kind]: "Boolean", type: "boolean" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/bigint/bigint.mjs
function BigInt2(options) {
  return CreateType({ [Kind]: "BigInt", type: "bigint" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/number/number.mjs
function Number2(options) {
  return CreateType({ [Kind]: "Number", type: "number" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/string/string.mjs
function String2(options) {
  return CreateType({ [Kind]: "String", type: "string" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/template-literal/syntax.mjs
function* FromUnion(syntax) {
  const trim = syntax.trim().replace(/"|'/g, "");
  return trim === "boolean" ? yield Boolean2() : trim === "number" ? yield Number2() : trim === "bigint" ? yield BigInt2() : trim === "string" ? yield String2() : yield (() => {
    const literals = trim.split("|").map((literal) => Literal(literal.trim()));
    return literals.length === 0 ? Never() : literals.length === 1 ? literals[0] : UnionEvaluated(literals);
  })();
}
function* FromTerminal(syntax) {
  if (syntax[1] !== "{") {
    const L = Literal("$");
    const R = FromSyntax(syntax.slice(1));
    return yield* [L, ...R];
  }
  for (let i = 2;i < syntax.length; i++) {
    if (syntax[i] === "}") {
      const L = FromUnion(syntax.slice(2, i));
      const R = FromSyntax(syntax.slice(i + 1));
      return yield* [...L, ...R];
    }
  }
  yield Literal(syntax);
}
function* FromSyntax(syntax) {
  for (let i = 0;i < syntax.length; i++) {
    if (syntax[i] === "$") {
      const L = Literal(syntax.slice(0, i));
      const R = FromTerminal(syntax.slice(i));
      return yield* [L, ...R];
    }
  }
  yield Literal(syntax);
}
function TemplateLiteralSyntax(syntax) {
  return [...FromSyntax(syntax)];
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/template-literal/pattern.mjs
class TemplateLiteralPatternError extends TypeBoxError {
}
function Escape(value) {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function Visit2(schema, acc) {
  return IsTemplateLiteral(schema) ? schema.pattern.slice(1, schema.pattern.length - 1) : IsUnion(schema) ? `(${schema.anyOf.map((schema) => Visit2(schema, acc)).join("|")})` : IsNumber3(schema) ? `${acc}${PatternNumber}` : IsInteger2(schema) ? `${acc}${PatternNumber}` : IsBigInt3(schema) ? `${acc}${PatternNumber}` : IsString3(schema) ? `${acc}${PatternString}` : IsLiteral(schema) ? `${acc}${Escape(schema.const.toString())}` : IsBoolean3(schema) ? `${acc}${PatternBoolean}` : (() => {
    throw new TemplateLiteralPatternError(`Unexpected Kind '${schema[Kind]}'`);
  })();
}
function TemplateLiteralPattern(kinds) {
  return `^${kinds.map((schema) => Visit2(schema, "")).join("")}$`;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/template-literal/union.mjs
function TemplateLiteralToUnion(schema) {
  const R = TemplateLiteralGenerate(schema);
  const L = R.map((S) => Literal(S));
  return UnionEvaluated(L);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/template-literal/template-literal.mjs
function TemplateLiteral(unresolved, options) {
  const pattern = IsString(unresolved) ? TemplateLiteralPattern(TemplateLiteralSyntax(unresolved)) : TemplateLiteralPattern(unresolved);
  return CreateType({ [Kind]: "TemplateLiteral", type: "string", pattern }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/indexed/indexed-property-keys.mjs
function FromTemplateLiteral(templateLiteral) {
  const keys = TemplateLiteralGenerate(templateLiteral);
  return keys.map((key) => key.toString());
}
function FromUnion2(types) {
  const result = [];
  for (const type of types)
    result.push(...IndexPropertyKeys(type));
  return result;
}
function FromLiteral(literalValue) {
  return [literalValue.toString()];
}
function IndexPropertyKeys(type) {
  return [...new Set(IsTemplateLiteral(type) ? FromTemplateLiteral(type) : IsUnion(type) ? FromUnion2(type.anyOf) : IsLiteral(type) ? FromLiteral(type.const) : IsNumber3(type) ? ["[number]"] : IsInteger2(type) ? ["[number]"] : [])];
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/indexed/indexed-from-mapped-result.mjs
function FromProperties(type, properties, options) {
  const result = {};
  for (const K2 of Object.getOwnPropertyNames(properties)) {
    result[K2] = Index(type, IndexPropertyKeys(properties[K2]), options);
  }
  return result;
}
function FromMappedResult(type, mappedResult, options) {
  return FromProperties(type, mappedResult.properties, options);
}
function IndexFromMappedResult(type, mappedResult, options) {
  const properties = FromMappedResult(type, mappedResult, options);
  return MappedResult(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/indexed/indexed.mjs
function FromRest(types, key) {
  return types.map((type) => IndexFromPropertyKey(type, key));
}
function FromIntersectRest(types) {
  return types.filter((type) => !IsNever(type));
}
function FromIntersect(types, key) {
  return IntersectEvaluated(FromIntersectRest(FromRest(types, key)));
}
function FromUnionRest(types) {
  return types.some((L) => IsNever(L)) ? [] : types;
}
function FromUnion3(types, key) {
  return UnionEvaluated(FromUnionRest(FromRest(types, key)));
}
function FromTuple(types, key) {
  return key in types ? types[key] : key === "[number]" ? UnionEvaluated(types) : Never();
}
function FromArray(type, key) {
  return key === "[number]" ? type : Never();
}
function FromProperty(properties, propertyKey) {
  return propertyKey in properties ? properties[propertyKey] : Never();
}
function IndexFromPropertyKey(type, propertyKey) {
  return IsIntersect(type) ? FromIntersect(type.allOf, propertyKey) : IsUnion(type) ? FromUnion3(type.anyOf, propertyKey) : IsTuple(type) ? FromTuple(type.items ?? [], propertyKey) : IsArray3(type) ? FromArray(type.items, propertyKey) : IsObject3(type) ? FromProperty(type.properties, propertyKey) : Never();
}
function IndexFromPropertyKeys(type, propertyKeys) {
  return propertyKeys.map((propertyKey) => IndexFromPropertyKey(type, propertyKey));
}
function FromSchema(type, propertyKeys) {
  return UnionEvaluated(IndexFromPropertyKeys(type, propertyKeys));
}
function Index(type, key, options) {
  if (IsRef(type) || IsRef(key)) {
    const error = `Index types using Ref parameters require both Type and Key to be of TSchema`;
    if (!IsSchema(type) || !IsSchema(key))
      throw new TypeBoxError(error);
    return Computed("Index", [type, key]);
  }
  if (IsMappedResult(key))
    return IndexFromMappedResult(type, key, options);
  if (IsMappedKey(key))
    return IndexFromMappedKey(type, key, options);
  return CreateType(IsSchema(key) ? FromSchema(type, IndexPropertyKeys(key)) : FromSchema(type, key), options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/indexed/indexed-from-mapped-key.mjs
function MappedIndexPropertyKey(type, key, options) {
  return { [key]: Index(type, [key], Clone(options)) };
}
function MappedIndexPropertyKeys(type, propertyKeys, options) {
  return propertyKeys.reduce((result, left) => {
    return { ...result, ...MappedIndexPropertyKey(type, left, options) };
  }, {});
}
function MappedIndexProperties(type, mappedKey, options) {
  return MappedIndexPropertyKeys(type, mappedKey.keys, options);
}
function IndexFromMappedKey(type, mappedKey, options) {
  const properties = MappedIndexProperties(type, mappedKey, options);
  return MappedResult(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/iterator/iterator.mjs
function Iterator(items, options) {
  return CreateType({ [Kind]: "Iterator", type: "Iterator", items }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/object/object.mjs
function RequiredArray(properties) {
  return globalThis.Object.keys(properties).filter((key) => !IsOptional(properties[key]));
}
function _Object_(properties, options) {
  const required = RequiredArray(properties);
  const schema = required.length > 0 ? { [Kind]: "Object", type: "object", required, properties } : { [Kind]: "Object", type: "object", properties };
  return CreateType(schema, options);
}
var Object2 = _Object_;

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/promise/promise.mjs
function Promise2(item, options) {
  return CreateType({ [Kind]: "Promise", type: "Promise", item }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/readonly/readonly.mjs
function RemoveReadonly(schema) {
  return CreateType(Discard(schema, [ReadonlyKind]));
}
function AddReadonly(schema) {
  return CreateType({ ...schema, [ReadonlyKind]: "Readonly" });
}
function ReadonlyWithFlag(schema, F) {
  return F === false ? RemoveReadonly(schema) : AddReadonly(schema);
}
function Readonly(schema, enable) {
  const F = enable ?? true;
  return IsMappedResult(schema) ? ReadonlyFromMappedResult(schema, F) : ReadonlyWithFlag(schema, F);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/readonly/readonly-from-mapped-result.mjs
function FromProperties2(K, F) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(K))
    Acc[K2] = Readonly(K[K2], F);
  return Acc;
}
function FromMappedResult2(R, F) {
  return FromProperties2(R.properties, F);
}
function ReadonlyFromMappedResult(R, F) {
  const P = FromMappedResult2(R, F);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/tuple/tuple.mjs
function Tuple(types, options) {
  return CreateType(types.length > 0 ? { [Kind]: "Tuple", type: "array", items: types, additionalItems: false, minItems: types.length, maxItems: types.length } : { [Kind]: "Tuple", type: "array", minItems: types.length, maxItems: types.length }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/mapped/mapped.mjs
function FromMappedResult3(K, P) {
  return K in P ? FromSchemaType(K, P[K]) : MappedResult(P);
}
function MappedKeyToKnownMappedResultProperties(K) {
  return { [K]: Literal(K) };
}
function MappedKeyToUnknownMappedResultProperties(P) {
  const Acc = {};
  for (const L of P)
    Acc[L] = Literal(L);
  return Acc;
}
function MappedKeyToMappedResultProperties(K, P) {
  return SetIncludes(P, K) ? MappedKeyToKnownMappedResultProperties(K) : MappedKeyToUnknownMappedResultProperties(P);
}
function FromMappedKey(K, P) {
  const R = MappedKeyToMappedResultProperties(K, P);
  return FromMappedResult3(K, R);
}
function FromRest2(K, T) {
  return T.map((L) => FromSchemaType(K, L));
}
function FromProperties3(K, T) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(T))
    Acc[K2] = FromSchemaType(K, T[K2]);
  return Acc;
}
function FromSchemaType(K, T) {
  const options = { ...T };
  return IsOptional(T) ? Optional(FromSchemaType(K, Discard(T, [OptionalKind]))) : IsReadonly(T) ? Readonly(FromSchemaType(K, Discard(T, [ReadonlyKind]))) : IsMappedResult(T) ? FromMappedResult3(K, T.properties) : IsMappedKey(T) ? FromMappedKey(K, T.keys) : IsConstructor(T) ? Constructor(FromRest2(K, T.parameters), FromSchemaType(K, T.returns), options) : IsFunction3(T) ? Function(FromRest2(K, T.parameters), FromSchemaType(K, T.returns), options) : IsAsyncIterator3(T) ? AsyncIterator(FromSchemaType(K, T.items), options) : IsIterator3(T) ? Iterator(FromSchemaType(K, T.items), options) : IsIntersect(T) ? Intersect(FromRest2(K, T.allOf), options) : IsUnion(T) ? Union(FromRest2(K, T.anyOf), options) : IsTuple(T) ? Tuple(FromRest2(K, T.items ?? []), options) : IsObject3(T) ? Object2(FromProperties3(K, T.properties), options) : IsArray3(T) ? Array2(FromSchemaType(K, T.items), options) : IsPromise2(T) ? Promise2(FromSchemaType(K, T.item), options) : T;
}
function MappedFunctionReturnType(K, T) {
  const Acc = {};
  for (const L of K)
    Acc[L] = FromSchemaType(L, T);
  return Acc;
}
function Mapped(key, map, options) {
  const K = IsSchema(key) ? IndexPropertyKeys(key) : key;
  const RT = map({ [Kind]: "MappedKey", keys: K });
  const R = MappedFunctionReturnType(K, RT);
  return Object2(R, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/optional/optional.mjs
function RemoveOptional(schema) {
  return CreateType(Discard(schema, [OptionalKind]));
}
function AddOptional(schema) {
  return CreateType({ ...schema, [OptionalKind]: "Optional" });
}
function OptionalWithFlag(schema, F) {
  return F === false ? RemoveOptional(schema) : AddOptional(schema);
}
function Optional(schema, enable) {
  const F = enable ?? true;
  return IsMappedResult(schema) ? OptionalFromMappedResult(schema, F) : OptionalWithFlag(schema, F);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/optional/optional-from-mapped-result.mjs
function FromProperties4(P, F) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(P))
    Acc[K2] = Optional(P[K2], F);
  return Acc;
}
function FromMappedResult4(R, F) {
  return FromProperties4(R.properties, F);
}
function OptionalFromMappedResult(R, F) {
  const P = FromMappedResult4(R, F);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intersect/intersect-create.mjs
function IntersectCreate(T, options = {}) {
  const allObjects = T.every((schema) => IsObject3(schema));
  const clonedUnevaluatedProperties = IsSchema(options.unevaluatedProperties) ? { unevaluatedProperties: options.unevaluatedProperties } : {};
  return CreateType(options.unevaluatedProperties === false || IsSchema(options.unevaluatedProperties) || allObjects ? { ...clonedUnevaluatedProperties, [Kind]: "Intersect", type: "object", allOf: T } : { ...clonedUnevaluatedProperties, [Kind]: "Intersect", allOf: T }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intersect/intersect-evaluated.mjs
function IsIntersectOptional(types) {
  return types.every((left) => IsOptional(left));
}
function RemoveOptionalFromType2(type) {
  return Discard(type, [OptionalKind]);
}
function RemoveOptionalFromRest2(types) {
  return types.map((left) => IsOptional(left) ? RemoveOptionalFromType2(left) : left);
}
function ResolveIntersect(types, options) {
  return IsIntersectOptional(types) ? Optional(IntersectCreate(RemoveOptionalFromRest2(types), options)) : IntersectCreate(RemoveOptionalFromRest2(types), options);
}
function IntersectEvaluated(types, options = {}) {
  if (types.length === 1)
    return CreateType(types[0], options);
  if (types.length === 0)
    return Never(options);
  if (types.some((schema) => IsTransform(schema)))
    throw new Error("Cannot intersect transform types");
  return ResolveIntersect(types, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intersect/intersect.mjs
function Intersect(types, options) {
  if (types.length === 1)
    return CreateType(types[0], options);
  if (types.length === 0)
    return Never(options);
  if (types.some((schema) => IsTransform(schema)))
    throw new Error("Cannot intersect transform types");
  return IntersectCreate(types, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/ref/ref.mjs
function Ref(...args) {
  const [$ref, options] = typeof args[0] === "string" ? [args[0], args[1]] : [args[0].$id, args[1]];
  if (typeof $ref !== "string")
    throw new TypeBoxError("Ref: $ref must be a string");
  return CreateType({ [Kind]: "Ref", $ref }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/awaited/awaited.mjs
function FromComputed(target, parameters) {
  return Computed("Awaited", [Computed(target, parameters)]);
}
function FromRef($ref) {
  return Computed("Awaited", [Ref($ref)]);
}
function FromIntersect2(types) {
  return Intersect(FromRest3(types));
}
function FromUnion4(types) {
  return Union(FromRest3(types));
}
function FromPromise(type) {
  return Awaited(type);
}
function FromRest3(types) {
  return types.map((type) => Awaited(type));
}
function Awaited(type, options) {
  return CreateType(IsComputed(type) ? FromComputed(type.target, type.parameters) : IsIntersect(type) ? FromIntersect2(type.allOf) : IsUnion(type) ? FromUnion4(type.anyOf) : IsPromise2(type) ? FromPromise(type.item) : IsRef(type) ? FromRef(type.$ref) : type, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/keyof/keyof-property-keys.mjs
function FromRest4(types) {
  const result = [];
  for (const L of types)
    result.push(KeyOfPropertyKeys(L));
  return result;
}
function FromIntersect3(types) {
  const propertyKeysArray = FromRest4(types);
  const propertyKeys = SetUnionMany(propertyKeysArray);
  return propertyKeys;
}
function FromUnion5(types) {
  const propertyKeysArray = FromRest4(types);
  const propertyKeys = SetIntersectMany(propertyKeysArray);
  return propertyKeys;
}
function FromTuple2(types) {
  return types.map((_, indexer) => indexer.toString());
}
function FromArray2(_) {
  return ["[number]"];
}
function FromProperties5(T) {
  return globalThis.Object.getOwnPropertyNames(T);
}
function FromPatternProperties(patternProperties) {
  if (!includePatternProperties)
    return [];
  const patternPropertyKeys = globalThis.Object.getOwnPropertyNames(patternProperties);
  return patternPropertyKeys.map((key) => {
    return key[0] === "^" && key[key.length - 1] === "$" ? key.slice(1, key.length - 1) : key;
  });
}
function KeyOfPropertyKeys(type) {
  return IsIntersect(type) ? FromIntersect3(type.allOf) : IsUnion(type) ? FromUnion5(type.anyOf) : IsTuple(type) ? FromTuple2(type.items ?? []) : IsArray3(type) ? FromArray2(type.items) : IsObject3(type) ? FromProperties5(type.properties) : IsRecord(type) ? FromPatternProperties(type.patternProperties) : [];
}
var includePatternProperties = false;
function KeyOfPattern(schema) {
  includePatternProperties = true;
  const keys = KeyOfPropertyKeys(schema);
  includePatternProperties = false;
  const pattern = keys.map((key) => `(${key})`);
  return `^(${pattern.join("|")})$`;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/keyof/keyof.mjs
function FromComputed2(target, parameters) {
  return Computed("KeyOf", [Computed(target, parameters)]);
}
function FromRef2($ref) {
  return Computed("KeyOf", [Ref($ref)]);
}
function KeyOfFromType(type, options) {
  const propertyKeys = KeyOfPropertyKeys(type);
  const propertyKeyTypes = KeyOfPropertyKeysToRest(propertyKeys);
  const result = UnionEvaluated(propertyKeyTypes);
  return CreateType(result, options);
}
function KeyOfPropertyKeysToRest(propertyKeys) {
  return propertyKeys.map((L) => L === "[number]" ? Number2() : Literal(L));
}
function KeyOf(type, options) {
  return IsComputed(type) ? FromComputed2(type.target, type.parameters) : IsRef(type) ? FromRef2(type.$ref) : IsMappedResult(type) ? KeyOfFromMappedResult(type, options) : KeyOfFromType(type, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/keyof/keyof-from-mapped-result.mjs
function FromProperties6(properties, options) {
  const result = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(properties))
    result[K2] = KeyOf(properties[K2], Clone(options));
  return result;
}
function FromMappedResult5(mappedResult, options) {
  return FromProperties6(mappedResult.properties, options);
}
function KeyOfFromMappedResult(mappedResult, options) {
  const properties = FromMappedResult5(mappedResult, options);
  return MappedResult(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/composite/composite.mjs
function CompositeKeys(T) {
  const Acc = [];
  for (const L of T)
    Acc.push(...KeyOfPropertyKeys(L));
  return SetDistinct(Acc);
}
function FilterNever(T) {
  return T.filter((L) => !IsNever(L));
}
function CompositeProperty(T, K) {
  const Acc = [];
  for (const L of T)
    Acc.push(...IndexFromPropertyKeys(L, [K]));
  return FilterNever(Acc);
}
function CompositeProperties(T, K) {
  const Acc = {};
  for (const L of K) {
    Acc[L] = IntersectEvaluated(CompositeProperty(T, L));
  }
  return Acc;
}
function Composite(T, options) {
  const K = CompositeKeys(T);
  const P = CompositeProperties(T, K);
  const R = Object2(P, options);
  return R;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/date/date.mjs
function Date2(options) {
  return CreateType({ [Kind]: "Date", type: "Date" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/null/null.mjs
function Null(options) {
  return CreateType({ [Kind]: "Null", type: "null" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/symbol/symbol.mjs
function Symbol2(options) {
  return CreateType({ [Kind]: "Symbol", type: "symbol" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/undefined/undefined.mjs
function Undefined(options) {
  return CreateType({ [Kind]: "Undefined", type: "undefined" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/uint8array/uint8array.mjs
function Uint8Array2(options) {
  return CreateType({ [Kind]: "Uint8Array", type: "Uint8Array" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/unknown/unknown.mjs
function Unknown(options) {
  return CreateType({ [Kind]: "Unknown" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/const/const.mjs
function FromArray3(T) {
  return T.map((L) => FromValue(L, false));
}
function FromProperties7(value) {
  const Acc = {};
  for (const K of globalThis.Object.getOwnPropertyNames(value))
    Acc[K] = Readonly(FromValue(value[K], false));
  return Acc;
}
function ConditionalReadonly(T, root) {
  return root === true ? T : Readonly(T);
}
function FromValue(value, root) {
  return IsAsyncIterator(value) ? ConditionalReadonly(Any(), root) : IsIterator(value) ? ConditionalReadonly(Any(), root) : IsArray(value) ? Readonly(Tuple(FromArray3(value))) : IsUint8Array(value) ? Uint8Array2() : IsDate(value) ? Date2() : IsObject(value) ? ConditionalReadonly(Object2(FromProperties7(value)), root) : IsFunction(value) ? ConditionalReadonly(Function([], Unknown()), root) : IsUndefined(value) ? Undefined() : IsNull(value) ? Null() : IsSymbol(value) ? Symbol2() : IsBigInt(value) ? BigInt2() : IsNumber(value) ? Literal(value) : IsBoolean(value) ? Literal(value) : IsString(value) ? Literal(value) : Object2({});
}
function Const(T, options) {
  return CreateType(FromValue(T, true), options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/constructor-parameters/constructor-parameters.mjs
function ConstructorParameters(schema, options) {
  return IsConstructor(schema) ? Tuple(schema.parameters, options) : Never(options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/enum/enum.mjs
function Enum(item, options) {
  if (IsUndefined(item))
    throw new Error("Enum undefined or empty");
  const values1 = globalThis.Object.getOwnPropertyNames(item).filter((key) => isNaN(key)).map((key) => item[key]);
  const values2 = [...new Set(values1)];
  const anyOf = values2.map((value) => Literal(value));
  return Union(anyOf, { ...options, [Hint]: "Enum" });
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extends/extends-check.mjs
class ExtendsResolverError extends TypeBoxError {
}
var ExtendsResult;
(function(ExtendsResult) {
  ExtendsResult[ExtendsResult["Union"] = 0] = "Union";
  ExtendsResult[ExtendsResult["True"] = 1] = "True";
  ExtendsResult[ExtendsResult["False"] = 2] = "False";
})(ExtendsResult || (ExtendsResult = {}));
function IntoBooleanResult(result) {
  return result === ExtendsResult.False ? result : ExtendsResult.True;
}
function Throw(message) {
  throw new ExtendsResolverError(message);
}
function IsStructuralRight(right) {
  return IsNever2(right) || IsIntersect2(right) || IsUnion2(right) || IsUnknown2(right) || IsAny2(right);
}
function StructuralRight(left, right) {
  return IsNever2(right) ? FromNeverRight(left, right) : IsIntersect2(right) ? FromIntersectRight(left, right) : IsUnion2(right) ? FromUnionRight(left, right) : IsUnknown2(right) ? FromUnknownRight(left, right) : IsAny2(right) ? FromAnyRight(left, right) : Throw("StructuralRight");
}
function FromAnyRight(left, right) {
  return ExtendsResult.True;
}
function FromAny(left, right) {
  return IsIntersect2(right) ? FromIntersectRight(left, right) : IsUnion2(right) && right.anyOf.some((schema) => IsAny2(schema) || IsUnknown2(schema)) ? ExtendsResult.True : IsUnion2(right) ? ExtendsResult.Union : IsUnknown2(right) ? ExtendsResult.True : IsAny2(right) ? ExtendsResult.True : ExtendsResult.Union;
}
function FromArrayRight(left, right) {
  return IsUnknown2(left) ? ExtendsResult.False : IsAny2(left) ? ExtendsResult.Union : IsNever2(left) ? ExtendsResult.True : ExtendsResult.False;
}
function FromArray4(left, right) {
  return IsObject4(right) && IsObjectArrayLike(right) ? ExtendsResult.True : IsStructuralRight(right) ? StructuralRight(left, right) : !IsArray4(right) ? ExtendsResult.False : IntoBooleanResult(Visit3(left.items, right.items));
}
function FromAsyncIterator(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : !IsAsyncIterator4(right) ? ExtendsResult.False : IntoBooleanResult(Visit3(left.items, right.items));
}
function FromBigInt(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsBigInt4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromBooleanRight(left, right) {
  return IsLiteralBoolean(left) ? ExtendsResult.True : IsBoolean4(left) ? ExtendsResult.True : ExtendsResult.False;
}
function FromBoolean(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsBoolean4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromConstructor(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : !IsConstructor2(right) ? ExtendsResult.False : left.parameters.length > right.parameters.length ? ExtendsResult.False : !left.parameters.every((schema, index) => IntoBooleanResult(Visit3(right.parameters[index], schema)) === ExtendsResult.True) ? ExtendsResult.False : IntoBooleanResult(Visit3(left.returns, right.returns));
}
function FromDate(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsDate4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromFunction(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : !IsFunction4(right) ? ExtendsResult.False : left.parameters.length > right.parameters.length ? ExtendsResult.False : !left.parameters.every((schema, index) => IntoBooleanResult(Visit3(right.parameters[index], schema)) === ExtendsResult.True) ? ExtendsResult.False : IntoBooleanResult(Visit3(left.returns, right.returns));
}
function FromIntegerRight(left, right) {
  return IsLiteral2(left) && IsNumber(left.const) ? ExtendsResult.True : IsNumber4(left) || IsInteger3(left) ? ExtendsResult.True : ExtendsResult.False;
}
function FromInteger(left, right) {
  return IsInteger3(right) || IsNumber4(right) ? ExtendsResult.True : IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : ExtendsResult.False;
}
function FromIntersectRight(left, right) {
  return right.allOf.every((schema) => Visit3(left, schema) === ExtendsResult.True) ? ExtendsResult.True : ExtendsResult.False;
}
function FromIntersect4(left, right) {
  return left.allOf.some((schema) => Visit3(schema, right) === ExtendsResult.True) ? ExtendsResult.True : ExtendsResult.False;
}
function FromIterator(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : !IsIterator4(right) ? ExtendsResult.False : IntoBooleanResult(Visit3(left.items, right.items));
}
function FromLiteral2(left, right) {
  return IsLiteral2(right) && right.const === left.const ? ExtendsResult.True : IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsString4(right) ? FromStringRight(left, right) : IsNumber4(right) ? FromNumberRight(left, right) : IsInteger3(right) ? FromIntegerRight(left, right) : IsBoolean4(right) ? FromBooleanRight(left, right) : ExtendsResult.False;
}
function FromNeverRight(left, right) {
  return ExtendsResult.False;
}
function FromNever(left, right) {
  return ExtendsResult.True;
}
function UnwrapTNot(schema) {
  let [current, depth] = [schema, 0];
  while (true) {
    if (!IsNot2(current))
      break;
    current = current.not;
    depth += 1;
  }
  return depth % 2 === 0 ? current : Unknown();
}
function FromNot(left, right) {
  return IsNot2(left) ? Visit3(UnwrapTNot(left), right) : IsNot2(right) ? Visit3(left, UnwrapTNot(right)) : Throw("Invalid fallthrough for Not");
}
function FromNull(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsNull4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromNumberRight(left, right) {
  return IsLiteralNumber(left) ? ExtendsResult.True : IsNumber4(left) || IsInteger3(left) ? ExtendsResult.True : ExtendsResult.False;
}
function FromNumber(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsInteger3(right) || IsNumber4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function IsObjectPropertyCount(schema, count) {
  return Object.getOwnPropertyNames(schema.properties).length === count;
}
function IsObjectStringLike(schema) {
  return IsObjectArrayLike(schema);
}
function IsObjectSymbolLike(schema) {
  return IsObjectPropertyCount(schema, 0) || IsObjectPropertyCount(schema, 1) && "description" in schema.properties && IsUnion2(schema.properties.description) && schema.properties.description.anyOf.length === 2 && (IsString4(schema.properties.description.anyOf[0]) && IsUndefined4(schema.properties.description.anyOf[1]) || IsString4(schema.properties.description.anyOf[1]) && IsUndefined4(schema.properties.description.anyOf[0]));
}
function IsObjectNumberLike(schema) {
  return IsObjectPropertyCount(schema, 0);
}
function IsObjectBooleanLike(schema) {
  return IsObjectPropertyCount(schema, 0);
}
function IsObjectBigIntLike(schema) {
  return IsObjectPropertyCount(schema, 0);
}
function IsObjectDateLike(schema) {
  return IsObjectPropertyCount(schema, 0);
}
function IsObjectUint8ArrayLike(schema) {
  return IsObjectArrayLike(schema);
}
function IsObjectFunctionLike(schema) {
  const length = Number2();
  return IsObjectPropertyCount(schema, 0) || IsObjectPropertyCount(schema, 1) && "length" in schema.properties && IntoBooleanResult(Visit3(schema.properties["length"], length)) === ExtendsResult.True;
}
function IsObjectConstructorLike(schema) {
  return IsObjectPropertyCount(schema, 0);
}
function IsObjectArrayLike(schema) {
  const length = Number2();
  return IsObjectPropertyCount(schema, 0) || IsObjectPropertyCount(schema, 1) && "length" in schema.properties && IntoBooleanResult(Visit3(schema.properties["length"], length)) === ExtendsResult.True;
}
function IsObjectPromiseLike(schema) {
  const then = Function([Any()], Any());
  return IsObjectPropertyCount(schema, 0) || IsObjectPropertyCount(schema, 1) && "then" in schema.properties && IntoBooleanResult(Visit3(schema.properties["then"], then)) === ExtendsResult.True;
}
function Property(left, right) {
  return Visit3(left, right) === ExtendsResult.False ? ExtendsResult.False : IsOptional2(left) && !IsOptional2(right) ? ExtendsResult.False : ExtendsResult.True;
}
function FromObjectRight(left, right) {
  return IsUnknown2(left) ? ExtendsResult.False : IsAny2(left) ? ExtendsResult.Union : IsNever2(left) || IsLiteralString(left) && IsObjectStringLike(right) || IsLiteralNumber(left) && IsObjectNumberLike(right) || IsLiteralBoolean(left) && IsObjectBooleanLike(right) || IsSymbol4(left) && IsObjectSymbolLike(right) || IsBigInt4(left) && IsObjectBigIntLike(right) || IsString4(left) && IsObjectStringLike(right) || IsSymbol4(left) && IsObjectSymbolLike(right) || IsNumber4(left) && IsObjectNumberLike(right) || IsInteger3(left) && IsObjectNumberLike(right) || IsBoolean4(left) && IsObjectBooleanLike(right) || IsUint8Array4(left) && IsObjectUint8ArrayLike(right) || IsDate4(left) && IsObjectDateLike(right) || IsConstructor2(left) && IsObjectConstructorLike(right) || IsFunction4(left) && IsObjectFunctionLike(right) ? ExtendsResult.True : IsRecord2(left) && IsString4(RecordKey(left)) ? (() => {
    return right[Hint] === "Record" ? ExtendsResult.True : ExtendsResult.False;
  })() : IsRecord2(left) && IsNumber4(RecordKey(left)) ? (() => {
    return IsObjectPropertyCount(right, 0) ? ExtendsResult.True : ExtendsResult.False;
  })() : ExtendsResult.False;
}
function FromObject(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : !IsObject4(right) ? ExtendsResult.False : (() => {
    for (const key of Object.getOwnPropertyNames(right.properties)) {
      if (!(key in left.properties) && !IsOptional2(right.properties[key])) {
        return ExtendsResult.False;
      }
      if (IsOptional2(right.properties[key])) {
        return ExtendsResult.True;
      }
      if (Property(left.properties[key], right.properties[key]) === ExtendsResult.False) {
        return ExtendsResult.False;
      }
    }
    return ExtendsResult.True;
  })();
}
function FromPromise2(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) && IsObjectPromiseLike(right) ? ExtendsResult.True : !IsPromise3(right) ? ExtendsResult.False : IntoBooleanResult(Visit3(left.item, right.item));
}
function RecordKey(schema) {
  return PatternNumberExact in schema.patternProperties ? Number2() : (PatternStringExact in schema.patternProperties) ? String2() : Throw("Unknown record key pattern");
}
function RecordValue(schema) {
  return PatternNumberExact in schema.patternProperties ? schema.patternProperties[PatternNumberExact] : (PatternStringExact in schema.patternProperties) ? schema.patternProperties[PatternStringExact] : Throw("Unable to get record value schema");
}
function FromRecordRight(left, right) {
  const [Key, Value] = [RecordKey(right), RecordValue(right)];
  return IsLiteralString(left) && IsNumber4(Key) && IntoBooleanResult(Visit3(left, Value)) === ExtendsResult.True ? ExtendsResult.True : IsUint8Array4(left) && IsNumber4(Key) ? Visit3(left, Value) : IsString4(left) && IsNumber4(Key) ? Visit3(left, Value) : IsArray4(left) && IsNumber4(Key) ? Visit3(left, Value) : IsObject4(left) ? (() => {
    for (const key of Object.getOwnPropertyNames(left.properties)) {
      if (Property(Value, left.properties[key]) === ExtendsResult.False) {
        return ExtendsResult.False;
      }
    }
    return ExtendsResult.True;
  })() : ExtendsResult.False;
}
function FromRecord(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : !IsRecord2(right) ? ExtendsResult.False : Visit3(RecordValue(left), RecordValue(right));
}
function FromRegExp(left, right) {
  const L = IsRegExp3(left) ? String2() : left;
  const R = IsRegExp3(right) ? String2() : right;
  return Visit3(L, R);
}
function FromStringRight(left, right) {
  return IsLiteral2(left) && IsString(left.const) ? ExtendsResult.True : IsString4(left) ? ExtendsResult.True : ExtendsResult.False;
}
function FromString(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsString4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromSymbol(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsSymbol4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromTemplateLiteral2(left, right) {
  return IsTemplateLiteral2(left) ? Visit3(TemplateLiteralToUnion(left), right) : IsTemplateLiteral2(right) ? Visit3(left, TemplateLiteralToUnion(right)) : Throw("Invalid fallthrough for TemplateLiteral");
}
function IsArrayOfTuple(left, right) {
  return IsArray4(right) && left.items !== undefined && left.items.every((schema) => Visit3(schema, right.items) === ExtendsResult.True);
}
function FromTupleRight(left, right) {
  return IsNever2(left) ? ExtendsResult.True : IsUnknown2(left) ? ExtendsResult.False : IsAny2(left) ? ExtendsResult.Union : ExtendsResult.False;
}
function FromTuple3(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) && IsObjectArrayLike(right) ? ExtendsResult.True : IsArray4(right) && IsArrayOfTuple(left, right) ? ExtendsResult.True : !IsTuple2(right) ? ExtendsResult.False : IsUndefined(left.items) && !IsUndefined(right.items) || !IsUndefined(left.items) && IsUndefined(right.items) ? ExtendsResult.False : IsUndefined(left.items) && !IsUndefined(right.items) ? ExtendsResult.True : left.items.every((schema, index) => Visit3(schema, right.items[index]) === ExtendsResult.True) ? ExtendsResult.True : ExtendsResult.False;
}
function FromUint8Array(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsUint8Array4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromUndefined(left, right) {
  return IsStructuralRight(right) ? StructuralRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsRecord2(right) ? FromRecordRight(left, right) : IsVoid2(right) ? FromVoidRight(left, right) : IsUndefined4(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromUnionRight(left, right) {
  return right.anyOf.some((schema) => Visit3(left, schema) === ExtendsResult.True) ? ExtendsResult.True : ExtendsResult.False;
}
function FromUnion6(left, right) {
  return left.anyOf.every((schema) => Visit3(schema, right) === ExtendsResult.True) ? ExtendsResult.True : ExtendsResult.False;
}
function FromUnknownRight(left, right) {
  return ExtendsResult.True;
}
function FromUnknown(left, right) {
  return IsNever2(right) ? FromNeverRight(left, right) : IsIntersect2(right) ? FromIntersectRight(left, right) : IsUnion2(right) ? FromUnionRight(left, right) : IsAny2(right) ? FromAnyRight(left, right) : IsString4(right) ? FromStringRight(left, right) : IsNumber4(right) ? FromNumberRight(left, right) : IsInteger3(right) ? FromIntegerRight(left, right) : IsBoolean4(right) ? FromBooleanRight(left, right) : IsArray4(right) ? FromArrayRight(left, right) : IsTuple2(right) ? FromTupleRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsUnknown2(right) ? ExtendsResult.True : ExtendsResult.False;
}
function FromVoidRight(left, right) {
  return IsUndefined4(left) ? ExtendsResult.True : IsUndefined4(left) ? ExtendsResult.True : ExtendsResult.False;
}
function FromVoid(left, right) {
  return IsIntersect2(right) ? FromIntersectRight(left, right) : IsUnion2(right) ? FromUnionRight(left, right) : IsUnknown2(right) ? FromUnknownRight(left, right) : IsAny2(right) ? FromAnyRight(left, right) : IsObject4(right) ? FromObjectRight(left, right) : IsVoid2(right) ? ExtendsResult.True : ExtendsResult.False;
}
function Visit3(left, right) {
  return IsTemplateLiteral2(left) || IsTemplateLiteral2(right) ? FromTemplateLiteral2(left, right) : IsRegExp3(left) || IsRegExp3(right) ? FromRegExp(left, right) : IsNot2(left) || IsNot2(right) ? FromNot(left, right) : IsAny2(left) ? FromAny(left, right) : IsArray4(left) ? FromArray4(left, right) : IsBigInt4(left) ? FromBigInt(left, right) : IsBoolean4(left) ? FromBoolean(left, right) : IsAsyncIterator4(left) ? FromAsyncIterator(left, right) : IsConstructor2(left) ? FromConstructor(left, right) : IsDate4(left) ? FromDate(left, right) : IsFunction4(left) ? FromFunction(left, right) : IsInteger3(left) ? FromInteger(left, right) : IsIntersect2(left) ? FromIntersect4(left, right) : IsIterator4(left) ? FromIterator(left, right) : IsLiteral2(left) ? FromLiteral2(left, right) : IsNever2(left) ? FromNever(left, right) : IsNull4(left) ? FromNull(left, right) : IsNumber4(left) ? FromNumber(left, right) : IsObject4(left) ? FromObject(left, right) : IsRecord2(left) ? FromRecord(left, right) : IsString4(left) ? FromString(left, right) : IsSymbol4(left) ? FromSymbol(left, right) : IsTuple2(left) ? FromTuple3(left, right) : IsPromise3(left) ? FromPromise2(left, right) : IsUint8Array4(left) ? FromUint8Array(left, right) : IsUndefined4(left) ? FromUndefined(left, right) : IsUnion2(left) ? FromUnion6(left, right) : IsUnknown2(left) ? FromUnknown(left, right) : IsVoid2(left) ? FromVoid(left, right) : Throw(`Unknown left type operand '${left[Kind]}'`);
}
function ExtendsCheck(left, right) {
  return Visit3(left, right);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extends/extends-from-mapped-result.mjs
function FromProperties8(P, Right, True, False, options) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(P))
    Acc[K2] = Extends(P[K2], Right, True, False, Clone(options));
  return Acc;
}
function FromMappedResult6(Left, Right, True, False, options) {
  return FromProperties8(Left.properties, Right, True, False, options);
}
function ExtendsFromMappedResult(Left, Right, True, False, options) {
  const P = FromMappedResult6(Left, Right, True, False, options);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extends/extends.mjs
function ExtendsResolve(left, right, trueType, falseType) {
  const R = ExtendsCheck(left, right);
  return R === ExtendsResult.Union ? Union([trueType, falseType]) : R === ExtendsResult.True ? trueType : falseType;
}
function Extends(L, R, T, F, options) {
  return IsMappedResult(L) ? ExtendsFromMappedResult(L, R, T, F, options) : IsMappedKey(L) ? CreateType(ExtendsFromMappedKey(L, R, T, F, options)) : CreateType(ExtendsResolve(L, R, T, F), options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extends/extends-from-mapped-key.mjs
function FromPropertyKey(K, U, L, R, options) {
  return {
    [K]: Extends(Literal(K), U, L, R, Clone(options))
  };
}
function FromPropertyKeys(K, U, L, R, options) {
  return K.reduce((Acc, LK) => {
    return { ...Acc, ...FromPropertyKey(LK, U, L, R, options) };
  }, {});
}
function FromMappedKey2(K, U, L, R, options) {
  return FromPropertyKeys(K.keys, U, L, R, options);
}
function ExtendsFromMappedKey(T, U, L, R, options) {
  const P = FromMappedKey2(T, U, L, R, options);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extends/extends-undefined.mjs
function Intersect2(schema) {
  return schema.allOf.every((schema) => ExtendsUndefinedCheck(schema));
}
function Union2(schema) {
  return schema.anyOf.some((schema) => ExtendsUndefinedCheck(schema));
}
function Not(schema) {
  return !ExtendsUndefinedCheck(schema.not);
}
function ExtendsUndefinedCheck(schema) {
  return schema[Kind] === "Intersect" ? Intersect2(schema) : schema[Kind] === "Union" ? Union2(schema) : schema[Kind] === "Not" ? Not(schema) : schema[Kind] === "Undefined" ? true : false;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/exclude/exclude-from-template-literal.mjs
function ExcludeFromTemplateLiteral(L, R) {
  return Exclude(TemplateLiteralToUnion(L), R);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/exclude/exclude.mjs
function ExcludeRest(L, R) {
  const excluded = L.filter((inner) => ExtendsCheck(inner, R) === ExtendsResult.False);
  return excluded.length === 1 ? excluded[0] : Union(excluded);
}
function Exclude(L, R, options = {}) {
  if (IsTemplateLiteral(L))
    return CreateType(ExcludeFromTemplateLiteral(L, R), options);
  if (IsMappedResult(L))
    return CreateType(ExcludeFromMappedResult(L, R), options);
  return CreateType(IsUnion(L) ? ExcludeRest(L.anyOf, R) : ExtendsCheck(L, R) !== ExtendsResult.False ? Never() : L, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/exclude/exclude-from-mapped-result.mjs
function FromProperties9(P, U) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(P))
    Acc[K2] = Exclude(P[K2], U);
  return Acc;
}
function FromMappedResult7(R, T) {
  return FromProperties9(R.properties, T);
}
function ExcludeFromMappedResult(R, T) {
  const P = FromMappedResult7(R, T);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extract/extract-from-template-literal.mjs
function ExtractFromTemplateLiteral(L, R) {
  return Extract(TemplateLiteralToUnion(L), R);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extract/extract.mjs
function ExtractRest(L, R) {
  const extracted = L.filter((inner) => ExtendsCheck(inner, R) !== ExtendsResult.False);
  return extracted.length === 1 ? extracted[0] : Union(extracted);
}
function Extract(L, R, options) {
  if (IsTemplateLiteral(L))
    return CreateType(ExtractFromTemplateLiteral(L, R), options);
  if (IsMappedResult(L))
    return CreateType(ExtractFromMappedResult(L, R), options);
  return CreateType(IsUnion(L) ? ExtractRest(L.anyOf, R) : ExtendsCheck(L, R) !== ExtendsResult.False ? L : Never(), options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/extract/extract-from-mapped-result.mjs
function FromProperties10(P, T) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(P))
    Acc[K2] = Extract(P[K2], T);
  return Acc;
}
function FromMappedResult8(R, T) {
  return FromProperties10(R.properties, T);
}
function ExtractFromMappedResult(R, T) {
  const P = FromMappedResult8(R, T);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/instance-type/instance-type.mjs
function InstanceType(schema, options) {
  return IsConstructor(schema) ? CreateType(schema.returns, options) : Never(options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/readonly-optional/readonly-optional.mjs
function ReadonlyOptional(schema) {
  return Readonly(Optional(schema));
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/record/record.mjs
function RecordCreateFromPattern(pattern, T, options) {
  return CreateType({ [Kind]: "Record", type: "object", patternProperties: { [pattern]: T } }, options);
}
function RecordCreateFromKeys(K, T, options) {
  const result = {};
  for (const K2 of K)
    result[K2] = T;
  return Object2(result, { ...options, [Hint]: "Record" });
}
function FromTemplateLiteralKey(K, T, options) {
  return IsTemplateLiteralFinite(K) ? RecordCreateFromKeys(IndexPropertyKeys(K), T, options) : RecordCreateFromPattern(K.pattern, T, options);
}
function FromUnionKey(key, type, options) {
  return RecordCreateFromKeys(IndexPropertyKeys(Union(key)), type, options);
}
function FromLiteralKey(key, type, options) {
  return RecordCreateFromKeys([key.toString()], type, options);
}
function FromRegExpKey(key, type, options) {
  return RecordCreateFromPattern(key.source, type, options);
}
function FromStringKey(key, type, options) {
  const pattern = IsUndefined(key.pattern) ? PatternStringExact : key.pattern;
  return RecordCreateFromPattern(pattern, type, options);
}
function FromAnyKey(_, type, options) {
  return RecordCreateFromPattern(PatternStringExact, type, options);
}
function FromNeverKey(_key, type, options) {
  return RecordCreateFromPattern(PatternNeverExact, type, options);
}
function FromBooleanKey(_key, type, options) {
  return Object2({ true: type, false: type }, options);
}
function FromIntegerKey(_key, type, options) {
  return RecordCreateFromPattern(PatternNumberExact, type, options);
}
function FromNumberKey(_, type, options) {
  return RecordCreateFromPattern(PatternNumberExact, type, options);
}
function Record(key, type, options = {}) {
  return IsUnion(key) ? FromUnionKey(key.anyOf, type, options) : IsTemplateLiteral(key) ? FromTemplateLiteralKey(key, type, options) : IsLiteral(key) ? FromLiteralKey(key.const, type, options) : IsBoolean3(key) ? FromBooleanKey(key, type, options) : IsInteger2(key) ? FromIntegerKey(key, type, options) : IsNumber3(key) ? FromNumberKey(key, type, options) : IsRegExp2(key) ? FromRegExpKey(key, type, options) : IsString3(key) ? FromStringKey(key, type, options) : IsAny(key) ? FromAnyKey(key, type, options) : IsNever(key) ? FromNeverKey(key, type, options) : Never(options);
}
function RecordPattern(record) {
  return globalThis.Object.getOwnPropertyNames(record.patternProperties)[0];
}
function RecordKey2(type) {
  const pattern = RecordPattern(type);
  return pattern === PatternStringExact ? String2() : pattern === PatternNumberExact ? Number2() : String2({ pattern });
}
function RecordValue2(type) {
  return type.patternProperties[RecordPattern(type)];
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/instantiate/instantiate.mjs
function FromConstructor2(args, type) {
  type.parameters = FromTypes(args, type.parameters);
  type.returns = FromType(args, type.returns);
  return type;
}
function FromFunction2(args, type) {
  type.parameters = FromTypes(args, type.parameters);
  type.returns = FromType(args, type.returns);
  return type;
}
function FromIntersect5(args, type) {
  type.allOf = FromTypes(args, type.allOf);
  return type;
}
function FromUnion7(args, type) {
  type.anyOf = FromTypes(args, type.anyOf);
  return type;
}
function FromTuple4(args, type) {
  if (IsUndefined(type.items))
    return type;
  type.items = FromTypes(args, type.items);
  return type;
}
function FromArray5(args, type) {
  type.items = FromType(args, type.items);
  return type;
}
function FromAsyncIterator2(args, type) {
  type.items = FromType(args, type.items);
  return type;
}
function FromIterator2(args, type) {
  type.items = FromType(args, type.items);
  return type;
}
function FromPromise3(args, type) {
  type.item = FromType(args, type.item);
  return type;
}
function FromObject2(args, type) {
  const mappedProperties = FromProperties11(args, type.properties);
  return { ...type, ...Object2(mappedProperties) };
}
function FromRecord2(args, type) {
  const mappedKey = FromType(args, RecordKey2(type));
  const mappedValue = FromType(args, RecordValue2(type));
  const result = Record(mappedKey, mappedValue);
  return { ...type, ...result };
}
function FromArgument(args, argument) {
  return argument.index in args ? args[argument.index] : Unknown();
}
function FromProperty2(args, type) {
  const isReadonly = IsReadonly(type);
  const isOptional = IsOptional(type);
  const mapped = FromType(args, type);
  return isReadonly && isOptional ? ReadonlyOptional(mapped) : isReadonly && !isOptional ? Readonly(mapped) : !isReadonly && isOptional ? Optional(mapped) : mapped;
}
function FromProperties11(args, properties) {
  return globalThis.Object.getOwnPropertyNames(properties).reduce((result, key) => {
    return { ...result, [key]: FromProperty2(args, properties[key]) };
  }, {});
}
function FromTypes(args, types) {
  return types.map((type) => FromType(args, type));
}
function FromType(args, type) {
  return IsConstructor(type) ? FromConstructor2(args, type) : IsFunction3(type) ? FromFunction2(args, type) : IsIntersect(type) ? FromIntersect5(args, type) : IsUnion(type) ? FromUnion7(args, type) : IsTuple(type) ? FromTuple4(args, type) : IsArray3(type) ? FromArray5(args, type) : IsAsyncIterator3(type) ? FromAsyncIterator2(args, type) : IsIterator3(type) ? FromIterator2(args, type) : IsPromise2(type) ? FromPromise3(args, type) : IsObject3(type) ? FromObject2(args, type) : IsRecord(type) ? FromRecord2(args, type) : IsArgument(type) ? FromArgument(args, type) : type;
}
function Instantiate(type, args) {
  return FromType(args, CloneType(type));
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/integer/integer.mjs
function Integer(options) {
  return CreateType({ [Kind]: "Integer", type: "integer" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intrinsic/intrinsic-from-mapped-key.mjs
function MappedIntrinsicPropertyKey(K, M, options) {
  return {
    [K]: Intrinsic(Literal(K), M, Clone(options))
  };
}
function MappedIntrinsicPropertyKeys(K, M, options) {
  const result = K.reduce((Acc, L) => {
    return { ...Acc, ...MappedIntrinsicPropertyKey(L, M, options) };
  }, {});
  return result;
}
function MappedIntrinsicProperties(T, M, options) {
  return MappedIntrinsicPropertyKeys(T["keys"], M, options);
}
function IntrinsicFromMappedKey(T, M, options) {
  const P = MappedIntrinsicProperties(T, M, options);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intrinsic/intrinsic.mjs
function ApplyUncapitalize(value) {
  const [first, rest] = [value.slice(0, 1), value.slice(1)];
  return [first.toLowerCase(), rest].join("");
}
function ApplyCapitalize(value) {
  const [first, rest] = [value.slice(0, 1), value.slice(1)];
  return [first.toUpperCase(), rest].join("");
}
function ApplyUppercase(value) {
  return value.toUpperCase();
}
function ApplyLowercase(value) {
  return value.toLowerCase();
}
function FromTemplateLiteral3(schema, mode, options) {
  const expression = TemplateLiteralParseExact(schema.pattern);
  const finite = IsTemplateLiteralExpressionFinite(expression);
  if (!finite)
    return { ...schema, pattern: FromLiteralValue(schema.pattern, mode) };
  const strings = [...TemplateLiteralExpressionGenerate(expression)];
  const literals = strings.map((value) => Literal(value));
  const mapped = FromRest5(literals, mode);
  const union = Union(mapped);
  return TemplateLiteral([union], options);
}
function FromLiteralValue(value, mode) {
  return typeof value === "string" ? mode === "Uncapitalize" ? ApplyUncapitalize(value) : mode === "Capitalize" ? ApplyCapitalize(value) : mode === "Uppercase" ? ApplyUppercase(value) : mode === "Lowercase" ? ApplyLowercase(value) : value : value.toString();
}
function FromRest5(T, M) {
  return T.map((L) => Intrinsic(L, M));
}
function Intrinsic(schema, mode, options = {}) {
  return IsMappedKey(schema) ? IntrinsicFromMappedKey(schema, mode, options) : IsTemplateLiteral(schema) ? FromTemplateLiteral3(schema, mode, options) : IsUnion(schema) ? Union(FromRest5(schema.anyOf, mode), options) : IsLiteral(schema) ? Literal(FromLiteralValue(schema.const, mode), options) : CreateType(schema, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intrinsic/capitalize.mjs
function Capitalize(T, options = {}) {
  return Intrinsic(T, "Capitalize", options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intrinsic/lowercase.mjs
function Lowercase(T, options = {}) {
  return Intrinsic(T, "Lowercase", options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intrinsic/uncapitalize.mjs
function Uncapitalize(T, options = {}) {
  return Intrinsic(T, "Uncapitalize", options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/intrinsic/uppercase.mjs
function Uppercase(T, options = {}) {
  return Intrinsic(T, "Uppercase", options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/omit/omit-from-mapped-result.mjs
function FromProperties12(properties, propertyKeys, options) {
  const result = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(properties))
    result[K2] = Omit(properties[K2], propertyKeys, Clone(options));
  return result;
}
function FromMappedResult9(mappedResult, propertyKeys, options) {
  return FromProperties12(mappedResult.properties, propertyKeys, options);
}
function OmitFromMappedResult(mappedResult, propertyKeys, options) {
  const properties = FromMappedResult9(mappedResult, propertyKeys, options);
  return MappedResult(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/omit/omit.mjs
function FromIntersect6(types, propertyKeys) {
  return types.map((type) => OmitResolve(type, propertyKeys));
}
function FromUnion8(types, propertyKeys) {
  return types.map((type) => OmitResolve(type, propertyKeys));
}
function FromProperty3(properties, key) {
  const { [key]: _, ...R } = properties;
  return R;
}
function FromProperties13(properties, propertyKeys) {
  return propertyKeys.reduce((T, K2) => FromProperty3(T, K2), properties);
}
function FromObject3(type, propertyKeys, properties) {
  const options = Discard(type, [TransformKind, "$id", "required", "properties"]);
  const mappedProperties = FromProperties13(properties, propertyKeys);
  return Object2(mappedProperties, options);
}
function UnionFromPropertyKeys(propertyKeys) {
  const result = propertyKeys.reduce((result, key) => IsLiteralValue(key) ? [...result, Literal(key)] : result, []);
  return Union(result);
}
function OmitResolve(type, propertyKeys) {
  return IsIntersect(type) ? Intersect(FromIntersect6(type.allOf, propertyKeys)) : IsUnion(type) ? Union(FromUnion8(type.anyOf, propertyKeys)) : IsObject3(type) ? FromObject3(type, propertyKeys, type.properties) : Object2({});
}
function Omit(type, key, options) {
  const typeKey = IsArray(key) ? UnionFromPropertyKeys(key) : key;
  const propertyKeys = IsSchema(key) ? IndexPropertyKeys(key) : key;
  const isTypeRef = IsRef(type);
  const isKeyRef = IsRef(key);
  return IsMappedResult(type) ? OmitFromMappedResult(type, propertyKeys, options) : IsMappedKey(key) ? OmitFromMappedKey(type, key, options) : isTypeRef && isKeyRef ? Computed("Omit", [type, typeKey], options) : !isTypeRef && isKeyRef ? Computed("Omit", [type, typeKey], options) : isTypeRef && !isKeyRef ? Computed("Omit", [type, typeKey], options) : CreateType({ ...OmitResolve(type, propertyKeys), ...options });
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/omit/omit-from-mapped-key.mjs
function FromPropertyKey2(type, key, options) {
  return { [key]: Omit(type, [key], Clone(options)) };
}
function FromPropertyKeys2(type, propertyKeys, options) {
  return propertyKeys.reduce((Acc, LK) => {
    return { ...Acc, ...FromPropertyKey2(type, LK, options) };
  }, {});
}
function FromMappedKey3(type, mappedKey, options) {
  return FromPropertyKeys2(type, mappedKey.keys, options);
}
function OmitFromMappedKey(type, mappedKey, options) {
  const properties = FromMappedKey3(type, mappedKey, options);
  return MappedResult(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/pick/pick-from-mapped-result.mjs
function FromProperties14(properties, propertyKeys, options) {
  const result = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(properties))
    result[K2] = Pick(properties[K2], propertyKeys, Clone(options));
  return result;
}
function FromMappedResult10(mappedResult, propertyKeys, options) {
  return FromProperties14(mappedResult.properties, propertyKeys, options);
}
function PickFromMappedResult(mappedResult, propertyKeys, options) {
  const properties = FromMappedResult10(mappedResult, propertyKeys, options);
  return MappedResult(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/pick/pick.mjs
function FromIntersect7(types, propertyKeys) {
  return types.map((type) => PickResolve(type, propertyKeys));
}
function FromUnion9(types, propertyKeys) {
  return types.map((type) => PickResolve(type, propertyKeys));
}
function FromProperties15(properties, propertyKeys) {
  const result = {};
  for (const K2 of propertyKeys)
    if (K2 in properties)
      result[K2] = properties[K2];
  return result;
}
function FromObject4(Type, keys, properties) {
  const options = Discard(Type, [TransformKind, "$id", "required", "properties"]);
  const mappedProperties = FromProperties15(properties, keys);
  return Object2(mappedProperties, options);
}
function UnionFromPropertyKeys2(propertyKeys) {
  const result = propertyKeys.reduce((result, key) => IsLiteralValue(key) ? [...result, Literal(key)] : result, []);
  return Union(result);
}
function PickResolve(type, propertyKeys) {
  return IsIntersect(type) ? Intersect(FromIntersect7(type.allOf, propertyKeys)) : IsUnion(type) ? Union(FromUnion9(type.anyOf, propertyKeys)) : IsObject3(type) ? FromObject4(type, propertyKeys, type.properties) : Object2({});
}
function Pick(type, key, options) {
  const typeKey = IsArray(key) ? UnionFromPropertyKeys2(key) : key;
  const propertyKeys = IsSchema(key) ? IndexPropertyKeys(key) : key;
  const isTypeRef = IsRef(type);
  const isKeyRef = IsRef(key);
  return IsMappedResult(type) ? PickFromMappedResult(type, propertyKeys, options) : IsMappedKey(key) ? PickFromMappedKey(type, key, options) : isTypeRef && isKeyRef ? Computed("Pick", [type, typeKey], options) : !isTypeRef && isKeyRef ? Computed("Pick", [type, typeKey], options) : isTypeRef && !isKeyRef ? Computed("Pick", [type, typeKey], options) : CreateType({ ...PickResolve(type, propertyKeys), ...options });
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/pick/pick-from-mapped-key.mjs
function FromPropertyKey3(type, key, options) {
  return {
    [key]: Pick(type, [key], Clone(options))
  };
}
function FromPropertyKeys3(type, propertyKeys, options) {
  return propertyKeys.reduce((result, leftKey) => {
    return { ...result, ...FromPropertyKey3(type, leftKey, options) };
  }, {});
}
function FromMappedKey4(type, mappedKey, options) {
  return FromPropertyKeys3(type, mappedKey.keys, options);
}
function PickFromMappedKey(type, mappedKey, options) {
  const properties = FromMappedKey4(type, mappedKey, options);
  return MappedResult(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/partial/partial.mjs
function FromComputed3(target, parameters) {
  return Computed("Partial", [Computed(target, parameters)]);
}
function FromRef3($ref) {
  return Computed("Partial", [Ref($ref)]);
}
function FromProperties16(properties) {
  const partialProperties = {};
  for (const K of globalThis.Object.getOwnPropertyNames(properties))
    partialProperties[K] = Optional(properties[K]);
  return partialProperties;
}
function FromObject5(type, properties) {
  const options = Discard(type, [TransformKind, "$id", "required", "properties"]);
  const mappedProperties = FromProperties16(properties);
  return Object2(mappedProperties, options);
}
function FromRest6(types) {
  return types.map((type) => PartialResolve(type));
}
function PartialResolve(type) {
  return IsComputed(type) ? FromComputed3(type.target, type.parameters) : IsRef(type) ? FromRef3(type.$ref) : IsIntersect(type) ? Intersect(FromRest6(type.allOf)) : IsUnion(type) ? Union(FromRest6(type.anyOf)) : IsObject3(type) ? FromObject5(type, type.properties) : IsBigInt3(type) ? type : IsBoolean3(type) ? type : IsInteger2(type) ? type : IsLiteral(type) ? type : IsNull3(type) ? type : IsNumber3(type) ? type : IsString3(type) ? type : IsSymbol3(type) ? type : IsUndefined3(type) ? type : Object2({});
}
function Partial(type, options) {
  if (IsMappedResult(type)) {
    return PartialFromMappedResult(type, options);
  } else {
    return CreateType({ ...PartialResolve(type), ...options });
  }
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/partial/partial-from-mapped-result.mjs
function FromProperties17(K, options) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(K))
    Acc[K2] = Partial(K[K2], Clone(options));
  return Acc;
}
function FromMappedResult11(R, options) {
  return FromProperties17(R.properties, options);
}
function PartialFromMappedResult(R, options) {
  const P = FromMappedResult11(R, options);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/required/required.mjs
function FromComputed4(target, parameters) {
  return Computed("Required", [Computed(target, parameters)]);
}
function FromRef4($ref) {
  return Computed("Required", [Ref($ref)]);
}
function FromProperties18(properties) {
  const requiredProperties = {};
  for (const K of globalThis.Object.getOwnPropertyNames(properties))
    requiredProperties[K] = Discard(properties[K], [OptionalKind]);
  return requiredProperties;
}
function FromObject6(type, properties) {
  const options = Discard(type, [TransformKind, "$id", "required", "properties"]);
  const mappedProperties = FromProperties18(properties);
  return Object2(mappedProperties, options);
}
function FromRest7(types) {
  return types.map((type) => RequiredResolve(type));
}
function RequiredResolve(type) {
  return IsComputed(type) ? FromComputed4(type.target, type.parameters) : IsRef(type) ? FromRef4(type.$ref) : IsIntersect(type) ? Intersect(FromRest7(type.allOf)) : IsUnion(type) ? Union(FromRest7(type.anyOf)) : IsObject3(type) ? FromObject6(type, type.properties) : IsBigInt3(type) ? type : IsBoolean3(type) ? type : IsInteger2(type) ? type : IsLiteral(type) ? type : IsNull3(type) ? type : IsNumber3(type) ? type : IsString3(type) ? type : IsSymbol3(type) ? type : IsUndefined3(type) ? type : Object2({});
}
function Required(type, options) {
  if (IsMappedResult(type)) {
    return RequiredFromMappedResult(type, options);
  } else {
    return CreateType({ ...RequiredResolve(type), ...options });
  }
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/required/required-from-mapped-result.mjs
function FromProperties19(P, options) {
  const Acc = {};
  for (const K2 of globalThis.Object.getOwnPropertyNames(P))
    Acc[K2] = Required(P[K2], options);
  return Acc;
}
function FromMappedResult12(R, options) {
  return FromProperties19(R.properties, options);
}
function RequiredFromMappedResult(R, options) {
  const P = FromMappedResult12(R, options);
  return MappedResult(P);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/module/compute.mjs
function DereferenceParameters(moduleProperties, types) {
  return types.map((type) => {
    return IsRef(type) ? Dereference(moduleProperties, type.$ref) : FromType2(moduleProperties, type);
  });
}
function Dereference(moduleProperties, ref) {
  return ref in moduleProperties ? IsRef(moduleProperties[ref]) ? Dereference(moduleProperties, moduleProperties[ref].$ref) : FromType2(moduleProperties, moduleProperties[ref]) : Never();
}
function FromAwaited(parameters) {
  return Awaited(parameters[0]);
}
function FromIndex(parameters) {
  return Index(parameters[0], parameters[1]);
}
function FromKeyOf(parameters) {
  return KeyOf(parameters[0]);
}
function FromPartial(parameters) {
  return Partial(parameters[0]);
}
function FromOmit(parameters) {
  return Omit(parameters[0], parameters[1]);
}
function FromPick(parameters) {
  return Pick(parameters[0], parameters[1]);
}
function FromRequired(parameters) {
  return Required(parameters[0]);
}
function FromComputed5(moduleProperties, target, parameters) {
  const dereferenced = DereferenceParameters(moduleProperties, parameters);
  return target === "Awaited" ? FromAwaited(dereferenced) : target === "Index" ? FromIndex(dereferenced) : target === "KeyOf" ? FromKeyOf(dereferenced) : target === "Partial" ? FromPartial(dereferenced) : target === "Omit" ? FromOmit(dereferenced) : target === "Pick" ? FromPick(dereferenced) : target === "Required" ? FromRequired(dereferenced) : Never();
}
function FromArray6(moduleProperties, type) {
  return Array2(FromType2(moduleProperties, type));
}
function FromAsyncIterator3(moduleProperties, type) {
  return AsyncIterator(FromType2(moduleProperties, type));
}
function FromConstructor3(moduleProperties, parameters, instanceType) {
  return Constructor(FromTypes2(moduleProperties, parameters), FromType2(moduleProperties, instanceType));
}
function FromFunction3(moduleProperties, parameters, returnType) {
  return Function(FromTypes2(moduleProperties, parameters), FromType2(moduleProperties, returnType));
}
function FromIntersect8(moduleProperties, types) {
  return Intersect(FromTypes2(moduleProperties, types));
}
function FromIterator3(moduleProperties, type) {
  return Iterator(FromType2(moduleProperties, type));
}
function FromObject7(moduleProperties, properties) {
  return Object2(globalThis.Object.keys(properties).reduce((result, key) => {
    return { ...result, [key]: FromType2(moduleProperties, properties[key]) };
  }, {}));
}
function FromRecord3(moduleProperties, type) {
  const [value, pattern] = [FromType2(moduleProperties, RecordValue2(type)), RecordPattern(type)];
  const result = CloneType(type);
  result.patternProperties[pattern] = value;
  return result;
}
function FromTransform(moduleProperties, transform) {
  return IsRef(transform) ? { ...Dereference(moduleProperties, transform.$ref), [TransformKind]: transform[TransformKind] } : transform;
}
function FromTuple5(moduleProperties, types) {
  return Tuple(FromTypes2(moduleProperties, types));
}
function FromUnion10(moduleProperties, types) {
  return Union(FromTypes2(moduleProperties, types));
}
function FromTypes2(moduleProperties, types) {
  return types.map((type) => FromType2(moduleProperties, type));
}
function FromType2(moduleProperties, type) {
  return IsOptional(type) ? CreateType(FromType2(moduleProperties, Discard(type, [OptionalKind])), type) : IsReadonly(type) ? CreateType(FromType2(moduleProperties, Discard(type, [ReadonlyKind])), type) : IsTransform(type) ? CreateType(FromTransform(moduleProperties, type), type) : IsArray3(type) ? CreateType(FromArray6(moduleProperties, type.items), type) : IsAsyncIterator3(type) ? CreateType(FromAsyncIterator3(moduleProperties, type.items), type) : IsComputed(type) ? CreateType(FromComputed5(moduleProperties, type.target, type.parameters)) : IsConstructor(type) ? CreateType(FromConstructor3(moduleProperties, type.parameters, type.returns), type) : IsFunction3(type) ? CreateType(FromFunction3(moduleProperties, type.parameters, type.returns), type) : IsIntersect(type) ? CreateType(FromIntersect8(moduleProperties, type.allOf), type) : IsIterator3(type) ? CreateType(FromIterator3(moduleProperties, type.items), type) : IsObject3(type) ? CreateType(FromObject7(moduleProperties, type.properties), type) : IsRecord(type) ? CreateType(FromRecord3(moduleProperties, type)) : IsTuple(type) ? CreateType(FromTuple5(moduleProperties, type.items || []), type) : IsUnion(type) ? CreateType(FromUnion10(moduleProperties, type.anyOf), type) : type;
}
function ComputeType(moduleProperties, key) {
  return key in moduleProperties ? FromType2(moduleProperties, moduleProperties[key]) : Never();
}
function ComputeModuleProperties(moduleProperties) {
  return globalThis.Object.getOwnPropertyNames(moduleProperties).reduce((result, key) => {
    return { ...result, [key]: ComputeType(moduleProperties, key) };
  }, {});
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/module/module.mjs
class TModule {
  constructor($defs) {
    const computed = ComputeModuleProperties($defs);
    const identified = this.WithIdentifiers(computed);
    this.$defs = identified;
  }
  Import(key, options) {
    const $defs = { ...this.$defs, [key]: CreateType(this.$defs[key], options) };
    return CreateType({ [Kind]: "Import", $defs, $ref: key });
  }
  WithIdentifiers($defs) {
    return globalThis.Object.getOwnPropertyNames($defs).reduce((result, key) => {
      return { ...result, [key]: { ...$defs[key], $id: key } };
    }, {});
  }
}
function Module(properties) {
  return new TModule(properties);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/not/not.mjs
function Not2(type, options) {
  return CreateType({ [Kind]: "Not", not: type }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/parameters/parameters.mjs
function Parameters(schema, options) {
  return IsFunction3(schema) ? Tuple(schema.parameters, options) : Never();
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/recursive/recursive.mjs
var Ordinal = 0;
function Recursive(callback, options = {}) {
  if (IsUndefined(options.$id))
    options.$id = `T${Ordinal++}`;
  const thisType = CloneType(callback({ [Kind]: "This", $ref: `${options.$id}` }));
  thisType.$id = options.$id;
  return CreateType({ [Hint]: "Recursive", ...thisType }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/regexp/regexp.mjs
function RegExp2(unresolved, options) {
  const expr = IsString(unresolved) ? new globalThis.RegExp(unresolved) : unresolved;
  return CreateType({ [Kind]: "RegExp", type: "RegExp", source: expr.source, flags: expr.flags }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/rest/rest.mjs
function RestResolve(T) {
  return IsIntersect(T) ? T.allOf : IsUnion(T) ? T.anyOf : IsTuple(T) ? T.items ?? [] : [];
}
function Rest(T) {
  return RestResolve(T);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/return-type/return-type.mjs
function ReturnType(schema, options) {
  return IsFunction3(schema) ? CreateType(schema.returns, options) : Never(options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/transform/transform.mjs
class TransformDecodeBuilder {
  constructor(schema) {
    this.schema = schema;
  }
  Decode(decode) {
    return new TransformEncodeBuilder(this.schema, decode);
  }
}

class TransformEncodeBuilder {
  constructor(schema, decode) {
    this.schema = schema;
    this.decode = decode;
  }
  EncodeTransform(encode, schema) {
    const Encode = (value) => schema[TransformKind].Encode(encode(value));
    const Decode = (value) => this.decode(schema[TransformKind].Decode(value));
    const Codec = { Encode, Decode };
    return { ...schema, [TransformKind]: Codec };
  }
  EncodeSchema(encode, schema) {
    const Codec = { Decode: this.decode, Encode: encode };
    return { ...schema, [TransformKind]: Codec };
  }
  Encode(encode) {
    return IsTransform(this.schema) ? this.EncodeTransform(encode, this.schema) : this.EncodeSchema(encode, this.schema);
  }
}
function Transform(schema) {
  return new TransformDecodeBuilder(schema);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/unsafe/unsafe.mjs
function Unsafe(options = {}) {
  return CreateType({ [Kind]: options[Kind] ?? "Unsafe" }, options);
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/void/void.mjs
function Void(options) {
  return CreateType({ [Kind]: "Void", type: "void" }, options);
}
// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/type/type/index.mjs
var Type = exports_type3;

// packages/schema/src/problem.ts
var FieldError = Type.Object({
  field: Type.String({
    description: 'Name of the offending field, or "body" when the body itself is wrong',
    examples: ["commitHash"]
  }),
  message: Type.String({
    description: "What is wrong and how to fix it",
    examples: ["must be 7 to 70 hexadecimal characters"]
  })
}, { $id: "FieldError", description: "One validation error for one field" });
var Problem = Type.Object({
  type: Type.String({
    description: "URI reference identifying the problem type",
    examples: ["/problems/validation-failed"]
  }),
  title: Type.String({
    description: "Short, human-readable summary of the problem type",
    examples: ["Validation failed"]
  }),
  status: Type.Integer({ description: "HTTP status code", examples: [422] }),
  detail: Type.String({
    description: "Human-readable explanation of this occurrence",
    examples: [
      "The request has 2 invalid fields: fix every one listed in errors and send it again."
    ]
  }),
  errors: Type.Optional(Type.Array(FieldError, { description: "Every failing field, at most one error each" }))
}, { $id: "Problem", description: "RFC 9457 problem details" });

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/value/deref/deref.mjs
class TypeDereferenceError extends TypeBoxError {
  constructor(schema) {
    super(`Unable to dereference schema with $id '${schema.$ref}'`);
    this.schema = schema;
  }
}
function Resolve(schema, references) {
  const target = references.find((target) => target.$id === schema.$ref);
  if (target === undefined)
    throw new TypeDereferenceError(schema);
  return Deref(target, references);
}
function Pushref(schema, references) {
  if (!IsString2(schema.$id) || references.some((target) => target.$id === schema.$id))
    return references;
  references.push(schema);
  return references;
}
function Deref(schema, references) {
  return schema[Kind] === "This" || schema[Kind] === "Ref" ? Resolve(schema, references) : schema;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/value/hash/hash.mjs
class ValueHashError extends TypeBoxError {
  constructor(value) {
    super(`Unable to hash value`);
    this.value = value;
  }
}
var ByteMarker;
(function(ByteMarker) {
  ByteMarker[ByteMarker["Undefined"] = 0] = "Undefined";
  ByteMarker[ByteMarker["Null"] = 1] = "Null";
  ByteMarker[ByteMarker["Boolean"] = 2] = "Boolean";
  ByteMarker[ByteMarker["Number"] = 3] = "Number";
  ByteMarker[ByteMarker["String"] = 4] = "String";
  ByteMarker[ByteMarker["Object"] = 5] = "Object";
  ByteMarker[ByteMarker["Array"] = 6] = "Array";
  ByteMarker[ByteMarker["Date"] = 7] = "Date";
  ByteMarker[ByteMarker["Uint8Array"] = 8] = "Uint8Array";
  ByteMarker[ByteMarker["Symbol"] = 9] = "Symbol";
  ByteMarker[ByteMarker["BigInt"] = 10] = "BigInt";
})(ByteMarker || (ByteMarker = {}));
var Accumulator = BigInt("14695981039346656037");
var [Prime, Size] = [BigInt("1099511628211"), BigInt("18446744073709551616")];
var Bytes = Array.from({ length: 256 }).map((_, i) => BigInt(i));
var F64 = new Float64Array(1);
var F64In = new DataView(F64.buffer);
var F64Out = new Uint8Array(F64.buffer);
function* NumberToBytes(value) {
  const byteCount = value === 0 ? 1 : Math.ceil(Math.floor(Math.log2(value) + 1) / 8);
  for (let i = 0;i < byteCount; i++) {
    yield value >> 8 * (byteCount - 1 - i) & 255;
  }
}
function ArrayType2(value) {
  FNV1A64(ByteMarker.Array);
  for (const item of value) {
    Visit4(item);
  }
}
function BooleanType(value) {
  FNV1A64(ByteMarker.Boolean);
  FNV1A64(value ? 1 : 0);
}
function BigIntType(value) {
  FNV1A64(ByteMarker.BigInt);
  F64In.setBigInt64(0, value);
  for (const byte of F64Out) {
    FNV1A64(byte);
  }
}
function DateType2(value) {
  FNV1A64(ByteMarker.Date);
  Visit4(value.getTime());
}
function NullType(value) {
  FNV1A64(ByteMarker.Null);
}
function NumberType(value) {
  FNV1A64(ByteMarker.Number);
  F64In.setFloat64(0, value);
  for (const byte of F64Out) {
    FNV1A64(byte);
  }
}
function ObjectType2(value) {
  FNV1A64(ByteMarker.Object);
  for (const key of globalThis.Object.getOwnPropertyNames(value).sort()) {
    Visit4(key);
    Visit4(value[key]);
  }
}
function StringType(value) {
  FNV1A64(ByteMarker.String);
  for (let i = 0;i < value.length; i++) {
    for (const byte of NumberToBytes(value.charCodeAt(i))) {
      FNV1A64(byte);
    }
  }
}
function SymbolType(value) {
  FNV1A64(ByteMarker.Symbol);
  Visit4(value.description);
}
function Uint8ArrayType2(value) {
  FNV1A64(ByteMarker.Uint8Array);
  for (let i = 0;i < value.length; i++) {
    FNV1A64(value[i]);
  }
}
function UndefinedType(value) {
  return FNV1A64(ByteMarker.Undefined);
}
function Visit4(value) {
  if (IsArray2(value))
    return ArrayType2(value);
  if (IsBoolean2(value))
    return BooleanType(value);
  if (IsBigInt2(value))
    return BigIntType(value);
  if (IsDate2(value))
    return DateType2(value);
  if (IsNull2(value))
    return NullType(value);
  if (IsNumber2(value))
    return NumberType(value);
  if (IsObject2(value))
    return ObjectType2(value);
  if (IsString2(value))
    return StringType(value);
  if (IsSymbol2(value))
    return SymbolType(value);
  if (IsUint8Array2(value))
    return Uint8ArrayType2(value);
  if (IsUndefined2(value))
    return UndefinedType(value);
  throw new ValueHashError(value);
}
function FNV1A64(byte) {
  Accumulator = Accumulator ^ Bytes[byte];
  Accumulator = Accumulator * Prime % Size;
}
function Hash(value) {
  Accumulator = BigInt("14695981039346656037");
  Visit4(value);
  return Accumulator;
}

// node_modules/.bun/@sinclair+typebox@0.34.52/node_modules/@sinclair/typebox/build/esm/value/check/check.mjs
class ValueCheckUnknownTypeError extends TypeBoxError {
  constructor(schema) {
    super(`Unknown type`);
    this.schema = schema;
  }
}
function IsAnyOrUnknown(schema) {
  return schema[Kind] === "Any" || schema[Kind] === "Unknown";
}
function IsDefined(value) {
  return value !== undefined;
}
function FromAny2(schema, references, value) {
  return true;
}
function FromArgument2(schema, references, value) {
  return true;
}
function FromArray7(schema, references, value) {
  if (!IsArray2(value))
    return false;
  if (IsDefined(schema.minItems) && !(value.length >= schema.minItems)) {
    return false;
  }
  if (IsDefined(schema.maxItems) && !(value.length <= schema.maxItems)) {
    return false;
  }
  for (const element of value) {
    if (!Visit5(schema.items, references, element))
      return false;
  }
  if (schema.uniqueItems === true && !function() {
    const set = new Set;
    for (const element of value) {
      const hashed = Hash(element);
      if (set.has(hashed)) {
        return false;
      } else {
        set.add(hashed);
      }
    }
    return true;
  }()) {
    return false;
  }
  if (!(IsDefined(schema.contains) || IsNumber2(schema.minContains) || IsNumber2(schema.maxContains))) {
    return true;
  }
  const containsSchema = IsDefined(schema.contains) ? schema.contains : Never();
  const containsCount = value.reduce((acc, value) => Visit5(containsSchema, references, value) ? acc + 1 : acc, 0);
  if (containsCount === 0) {
    return false;
  }
  if (IsNumber2(schema.minContains) && containsCount < schema.minContains) {
    return false;
  }
  if (IsNumber2(schema.maxContains) && containsCount > schema.maxContains) {
    return false;
  }
  return true;
}
function FromAsyncIterator4(schema, references, value) {
  return IsAsyncIterator2(value);
}
function FromBigInt2(schema, references, value) {
  if (!IsBigInt2(value))
    return false;
  if (IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
    return false;
  }
  if (IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
    return false;
  }
  if (IsDefined(schema.maximum) && !(value <= schema.maximum)) {
    return false;
  }
  if (IsDefined(schema.minimum) && !(value >= schema.minimum)) {
    return false;
  }
  if (IsDefined(schema.multipleOf) && !(value % schema.multipleOf === BigInt(0))) {
    return false;
  }
  return true;
}
function FromBoolean2(schema, references, value) {
  return IsBoolean2(value);
}
function FromConstructor4(schema, references, value) {
  return Visit5(schema.returns, references, value.prototype);
}
function FromDate2(schema, references, value) {
  if (!IsDate2(value))
    return false;
  if (IsDefined(schema.exclusiveMaximumTimestamp) && !(value.getTime() < schema.exclusiveMaximumTimestamp)) {
    return false;
  }
  if (IsDefined(schema.exclusiveMinimumTimestamp) && !(value.getTime() > schema.exclusiveMinimumTimestamp)) {
    return false;
  }
  if (IsDefined(schema.maximumTimestamp) && !(value.getTime() <= schema.maximumTimestamp)) {
    return false;
  }
  if (IsDefined(schema.minimumTimestamp) && !(value.getTime() >= schema.minimumTimestamp)) {
    return false;
  }
  if (IsDefined(schema.multipleOfTimestamp) && !(value.getTime() % schema.multipleOfTimestamp === 0)) {
    return false;
  }
  return true;
}
function FromFunction4(schema, references, value) {
  return IsFunction2(value);
}
function FromImport(schema, references, value) {
  const definitions = globalThis.Object.values(schema.$defs);
  const target = schema.$defs[schema.$ref];
  return Visit5(target, [...references, ...definitions], value);
}
function FromInteger2(schema, references, value) {
  if (!IsInteger(value)) {
    return false;
  }
  if (IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
    return false;
  }
  if (IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
    return false;
  }
  if (IsDefined(schema.maximum) && !(value <= schema.maximum)) {
    return false;
  }
  if (IsDefined(schema.minimum) && !(value >= schema.minimum)) {
    return false;
  }
  if (IsDefined(schema.multipleOf) && !(value % schema.multipleOf === 0)) {
    return false;
  }
  return true;
}
function FromIntersect9(schema, references, value) {
  const check1 = schema.allOf.every((schema) => Visit5(schema, references, value));
  if (schema.unevaluatedProperties === false) {
    const keyPattern = new RegExp(KeyOfPattern(schema));
    const check2 = Object.getOwnPropertyNames(value).every((key) => keyPattern.test(key));
    return check1 && check2;
  } else if (IsSchema(schema.unevaluatedProperties)) {
    const keyCheck = new RegExp(KeyOfPattern(schema));
    const check2 = Object.getOwnPropertyNames(value).every((key) => keyCheck.test(key) || Visit5(schema.unevaluatedProperties, references, value[key]));
    return check1 && check2;
  } else {
    return check1;
  }
}
function FromIterator4(schema, references, value) {
  return IsIterator2(value);
}
function FromLiteral3(schema, references, value) {
  return value === schema.const;
}
function FromNever2(schema, references, value) {
  return false;
}
function FromNot2(schema, references, value) {
  return !Visit5(schema.not, references, value);
}
function FromNull2(schema, references, value) {
  return IsNull2(value);
}
function FromNumber2(schema, references, value) {
  if (!TypeSystemPolicy.IsNumberLike(value))
    return false;
  if (IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
    return false;
  }
  if (IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
    return false;
  }
  if (IsDefined(schema.minimum) && !(value >= schema.minimum)) {
    return false;
  }
  if (IsDefined(schema.maximum) && !(value <= schema.maximum)) {
    return false;
  }
  if (IsDefined(schema.multipleOf) && !(value % schema.multipleOf === 0)) {
    return false;
  }
  return true;
}
function FromObject8(schema, references, value) {
  if (!TypeSystemPolicy.IsObjectLike(value))
    return false;
  if (IsDefined(schema.minProperties) && !(Object.getOwnPropertyNames(value).length >= schema.minProperties)) {
    return false;
  }
  if (IsDefined(schema.maxProperties) && !(Object.getOwnPropertyNames(value).length <= schema.maxProperties)) {
    return false;
  }
  const knownKeys = Object.getOwnPropertyNames(schema.properties);
  for (const knownKey of knownKeys) {
    const property = schema.properties[knownKey];
    if (schema.required && schema.required.includes(knownKey)) {
      if (!Visit5(property, references, value[knownKey])) {
        return false;
      }
      if ((ExtendsUndefinedCheck(property) || IsAnyOrUnknown(property)) && !(knownKey in value)) {
        return false;
      }
    } else {
      if (TypeSystemPolicy.IsExactOptionalProperty(value, knownKey) && !Visit5(property, references, value[knownKey])) {
        return false;
      }
    }
  }
  if (schema.additionalProperties === false) {
    const valueKeys = Object.getOwnPropertyNames(value);
    if (schema.required && schema.required.length === knownKeys.length && valueKeys.length === knownKeys.length) {
      return true;
    } else {
      return valueKeys.every((valueKey) => knownKeys.includes(valueKey));
    }
  } else if (typeof schema.additionalProperties === "object") {
    const valueKeys = Object.getOwnPropertyNames(value);
    return valueKeys.every((key) => knownKeys.includes(key) || Visit5(schema.additionalProperties, references, value[key]));
  } else {
    return true;
  }
}
function FromPromise4(schema, references, value) {
  return IsPromise(value);
}
function FromRecord4(schema, references, value) {
  if (!TypeSystemPolicy.IsRecordLike(value)) {
    return false;
  }
  if (IsDefined(schema.minProperties) && !(Object.getOwnPropertyNames(value).length >= schema.minProperties)) {
    return false;
  }
  if (IsDefined(schema.maxProperties) && !(Object.getOwnPropertyNames(value).length <= schema.maxProperties)) {
    return false;
  }
  const [patternKey, patternSchema] = Object.entries(schema.patternProperties)[0];
  const regex = new RegExp(patternKey);
  const check1 = Object.entries(value).every(([key, value]) => {
    return regex.test(key) ? Visit5(patternSchema, references, value) : true;
  });
  const check2 = typeof schema.additionalProperties === "object" ? Object.entries(value).every(([key, value]) => {
    return !regex.test(key) ? Visit5(schema.additionalProperties, references, value) : true;
  }) : true;
  const check3 = schema.additionalProperties === false ? Object.getOwnPropertyNames(value).every((key) => {
    return regex.test(key);
  }) : true;
  return check1 && check2 && check3;
}
function FromRef5(schema, references, value) {
  return Visit5(Deref(schema, references), references, value);
}
function FromRegExp2(schema, references, value) {
  const regex = new RegExp(schema.source, schema.flags);
  if (IsDefined(schema.minLength)) {
    if (!(value.length >= schema.minLength))
      return false;
  }
  if (IsDefined(schema.maxLength)) {
    if (!(value.length <= schema.maxLength))
      return false;
  }
  return regex.test(value);
}
function FromString2(schema, references, value) {
  if (!IsString2(value)) {
    return false;
  }
  if (IsDefined(schema.minLength)) {
    if (!(value.length >= schema.minLength))
      return false;
  }
  if (IsDefined(schema.maxLength)) {
    if (!(value.length <= schema.maxLength))
      return false;
  }
  if (IsDefined(schema.pattern)) {
    const regex = new RegExp(schema.pattern);
    if (!regex.test(value))
      return false;
  }
  if (IsDefined(schema.format)) {
    if (!Has(schema.format))
      return false;
    const func = Get(schema.format);
    return func(value);
  }
  return true;
}
function FromSymbol2(schema, references, value) {
  return IsSymbol2(value);
}
function FromTemplateLiteral4(schema, references, value) {
  return IsString2(value) && new RegExp(schema.pattern).test(value);
}
function FromThis(schema, references, value) {
  return Visit5(Deref(schema, references), references, value);
}
function FromTuple6(schema, references, value) {
  if (!IsArray2(value)) {
    return false;
  }
  if (schema.items === undefined && !(value.length === 0)) {
    return false;
  }
  if (!(value.length === schema.maxItems)) {
    return false;
  }
  if (!schema.items) {
    return true;
  }
  for (let i = 0;i < schema.items.length; i++) {
    if (!Visit5(schema.items[i], references, value[i]))
      return false;
  }
  return true;
}
function FromUndefined2(schema, references, value) {
  return IsUndefined2(value);
}
function FromUnion11(schema, references, value) {
  return schema.anyOf.some((inner) => Visit5(inner, references, value));
}
function FromUint8Array2(schema, references, value) {
  if (!IsUint8Array2(value)) {
    return false;
  }
  if (IsDefined(schema.maxByteLength) && !(value.length <= schema.maxByteLength)) {
    return false;
  }
  if (IsDefined(schema.minByteLength) && !(value.length >= schema.minByteLength)) {
    return false;
  }
  return true;
}
function FromUnknown2(schema, references, value) {
  return true;
}
function FromVoid2(schema, references, value) {
  return TypeSystemPolicy.IsVoidLike(value);
}
function FromKind(schema, references, value) {
  if (!Has2(schema[Kind]))
    return false;
  const func = Get2(schema[Kind]);
  return func(schema, value);
}
function Visit5(schema, references, value) {
  const references_ = IsDefined(schema.$id) ? Pushref(schema, references) : references;
  const schema_ = schema;
  switch (schema_[Kind]) {
    case "Any":
      return FromAny2(schema_, references_, value);
    case "Argument":
      return FromArgument2(schema_, references_, value);
    case "Array":
      return FromArray7(schema_, references_, value);
    case "AsyncIterator":
      return FromAsyncIterator4(schema_, references_, value);
    case "BigInt":
      return FromBigInt2(schema_, references_, value);
    case "Boolean":
      return FromBoolean2(schema_, references_, value);
    case "Constructor":
      return FromConstructor4(schema_, references_, value);
    case "Date":
      return FromDate2(schema_, references_, value);
    case "Function":
      return FromFunction4(schema_, references_, value);
    case "Import":
      return FromImport(schema_, references_, value);
    case "Integer":
      return FromInteger2(schema_, references_, value);
    case "Intersect":
      return FromIntersect9(schema_, references_, value);
    case "Iterator":
      return FromIterator4(schema_, references_, value);
    case "Literal":
      return FromLiteral3(schema_, references_, value);
    case "Never":
      return FromNever2(schema_, references_, value);
    case "Not":
      return FromNot2(schema_, references_, value);
    case "Null":
      return FromNull2(schema_, references_, value);
    case "Number":
      return FromNumber2(schema_, references_, value);
    case "Object":
      return FromObject8(schema_, references_, value);
    case "Promise":
      return FromPromise4(schema_, references_, value);
    case "Record":
      return FromRecord4(schema_, references_, value);
    case "Ref":
      return FromRef5(schema_, references_, value);
    case "RegExp":
      return FromRegExp2(schema_, references_, value);
    case "String":
      return FromString2(schema_, references_, value);
    case "Symbol":
      return FromSymbol2(schema_, references_, value);
    case "TemplateLiteral":
      return FromTemplateLiteral4(schema_, references_, value);
    case "This":
      return FromThis(schema_, references_, value);
    case "Tuple":
      return FromTuple6(schema_, references_, value);
    case "Undefined":
      return FromUndefined2(schema_, references_, value);
    case "Union":
      return FromUnion11(schema_, references_, value);
    case "Uint8Array":
      return FromUint8Array2(schema_, references_, value);
    case "Unknown":
      return FromUnknown2(schema_, references_, value);
    case "Void":
      return FromVoid2(schema_, references_, value);
    default:
      if (!Has2(schema_[Kind]))
        throw new ValueCheckUnknownTypeError(schema_);
      return FromKind(schema_, references_, value);
  }
}
function Check(...args) {
  return args.length === 3 ? Visit5(args[0], args[1], args[2]) : Visit5(args[0], [], args[1]);
}
// packages/client/src/problem.ts
var MAX_DETAIL = 300;
async function readProblem(response) {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text);
    if (Check(Problem, body))
      return body;
  } catch {}
  const snippet = text.replace(/\s+/g, " ").trim().slice(0, MAX_DETAIL);
  return {
    type: "about:blank",
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: snippet || `The server answered ${response.status} without a problem description.`
  };
}
function describeFieldError(error) {
  return `${error.field} ${error.message}`;
}
function summarizeProblem(problem) {
  const errors = problem.errors ?? [];
  const what = errors.length > 0 ? errors.map(describeFieldError).join("; ") : problem.detail;
  return `${problem.status} ${problem.title}: ${what}`;
}
function formatProblemLines(problem, label = (field) => field) {
  const lines = [`${problem.status} ${problem.title}: ${problem.detail}`];
  for (const error of problem.errors ?? [])
    lines.push(`  ${label(error.field)}: ${error.message}`);
  return lines;
}

// packages/client/src/errors.ts
var ONE_ATTEMPT = { attempts: 1, elapsedMs: 0 };
var describeAttempts = ({ attempts, elapsedMs }) => attempts === 1 ? "1 attempt" : `${attempts} attempts over ${describeDuration(elapsedMs)}`;
function networkReason(error) {
  if (!(error instanceof Error))
    return String(error);
  if (error.name === "TimeoutError")
    return "no answer in time";
  const cause = error.cause instanceof Error ? error.cause : undefined;
  for (const code of [error.code, cause?.code]) {
    if (typeof code === "string" && /^E[A-Z]+$/.test(code))
      return code;
  }
  return cause?.message ?? error.message;
}

class ShiplogError extends Error {
  name = "ShiplogError";
  status;
  type;
  problem;
  fieldErrors;
  attempts;
  elapsedMs;
  constructor(problem, tried = ONE_ATTEMPT) {
    const retried = tried.attempts > 1 ? ` (after ${describeAttempts(tried)})` : "";
    super(summarizeProblem(problem) + retried);
    this.status = problem.status;
    this.type = problem.type;
    this.problem = problem;
    this.fieldErrors = problem.errors ?? [];
    this.attempts = tried.attempts;
    this.elapsedMs = tried.elapsedMs;
  }
}

class ShiplogNetworkError extends Error {
  method;
  url;
  attempts;
  elapsedMs;
  name = "ShiplogNetworkError";
  constructor(method, url, attempts, cause, elapsedMs = 0) {
    const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : undefined;
    const reason = cause instanceof Error ? cause.message + (inner ? `: ${inner.message}` : "") : String(cause);
    super(`Could not reach Shiplog (${method} ${url}) in ${describeAttempts({ attempts, elapsedMs })}: ${reason}`, { cause });
    this.method = method;
    this.url = url;
    this.attempts = attempts;
    this.elapsedMs = elapsedMs;
  }
}

class DeploymentFailedError extends Error {
  deployment;
  name = "DeploymentFailedError";
  reason;
  constructor(deployment) {
    const failure = deployment.failure;
    const reason = failure?.reason ?? "no reason was given";
    const attempts = failure ? ` after ${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"}` : "";
    super(`Deployment ${deployment.id} failed${attempts}: ${reason}`);
    this.deployment = deployment;
    this.reason = reason;
  }
}

class DeploymentWaitTimeoutError extends Error {
  deployment;
  timeoutMs;
  name = "DeploymentWaitTimeoutError";
  constructor(deployment, timeoutMs) {
    super(`Deployment ${deployment.id} was still ${deployment.status} after ${timeoutMs / 1000} s; ` + "it may yet be recorded (the worker retries failed attempts for about 10 minutes).");
    this.deployment = deployment;
    this.timeoutMs = timeoutMs;
  }
}

// packages/client/src/idempotency-key.ts
function newIdempotencyKey() {
  const webCrypto = globalThis.crypto;
  if (webCrypto?.randomUUID)
    return webCrypto.randomUUID();
  return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (char) => {
    const nibble = Math.floor(Math.random() * 16);
    return (char === "x" ? nibble : nibble & 3 | 8).toString(16);
  });
}

// packages/client/src/read-queries.ts
function queryParams(values) {
  const params = new URLSearchParams;
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null)
      continue;
    params.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  return params;
}

// packages/client/src/list-query.ts
function listQueryParams(query) {
  return queryParams({ ...query });
}

// packages/client/src/location.ts
var RECEIPT_PATH = /\/deployments\/([^/]+)\/?$/;
function deploymentIdFromLocation(location) {
  let pathname;
  try {
    pathname = new URL(location, "http://location.invalid").pathname;
  } catch {
    return;
  }
  const encoded = RECEIPT_PATH.exec(pathname)?.[1];
  if (encoded === undefined)
    return;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return;
  }
}

// packages/client/src/retry.ts
function isRetryableStatus(status) {
  return status === 429 || status === 503;
}
function parseRetryAfter(value, now) {
  if (value === null)
    return;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed))
    return Number(trimmed) * 1000;
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(trimmed))
    return;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at))
    return;
  return Math.max(0, at - now);
}
var BASE_DELAY_MS = 500;
var MAX_DELAY_MS = 30000;
function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * ceiling / 2);
}

// packages/client/src/transport.ts
var USER_AGENT = "shiplog-client";
function createTransport(options) {
  const endpoint = (call) => {
    const url = new URL(call.path, options.baseUrl);
    if (call.query)
      url.search = call.query.toString();
    return url;
  };
  async function send(call) {
    const url = endpoint(call);
    const headers = {
      accept: "application/json, application/problem+json",
      authorization: `Bearer ${options.apiKey}`,
      "user-agent": USER_AGENT,
      ...call.headers
    };
    if (call.body !== undefined)
      headers["content-type"] = "application/json";
    const started = options.now();
    const deadline = Math.min(started + options.retryForMs, call.retryUntil ?? Infinity);
    const tried = (attempt) => ({
      attempts: attempt + 1,
      elapsedMs: options.now() - started
    });
    const nextWait = (attempt, wanted) => {
      const left = deadline - options.now();
      if (attempt >= options.maxRetries || left <= 0)
        return;
      return Math.min(wanted, left);
    };
    const retry = async (attempt, delayMs, outcome) => {
      options.onRetry?.({
        method: call.method,
        url: url.href,
        attempt: attempt + 2,
        delayMs,
        ...outcome,
        elapsedMs: options.now() - started,
        retryForMs: options.retryForMs,
        maxRetries: options.maxRetries
      });
      await options.sleep(delayMs);
    };
    for (let attempt = 0;; attempt++) {
      let response;
      try {
        response = await options.fetch(url, {
          method: call.method,
          headers,
          body: call.body ?? null,
          signal: AbortSignal.timeout(options.requestTimeoutMs)
        });
      } catch (error) {
        const wait = call.repeatable === false ? undefined : nextWait(attempt, backoffDelay(attempt));
        if (wait === undefined) {
          const { attempts, elapsedMs } = tried(attempt);
          throw new ShiplogNetworkError(call.method, url.href, attempts, error, elapsedMs);
        }
        await retry(attempt, wait, { error });
        continue;
      }
      if (response.ok)
        return response;
      if (isRetryableStatus(response.status)) {
        const asked = parseRetryAfter(response.headers.get("retry-after"), options.now());
        const wait = nextWait(attempt, asked || backoffDelay(attempt));
        if (wait !== undefined) {
          await response.body?.cancel();
          await retry(attempt, wait, { status: response.status });
          continue;
        }
      }
      throw new ShiplogError(await readProblem(response), tried(attempt));
    }
  }
  return { send, endpoint };
}

// packages/client/src/wait.ts
var DEFAULT_WAIT_TIMEOUT_MS = 120000;
var DEFAULT_INTERVAL_MS = 1000;
async function pollUntilRecorded(get, options) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const deadline = options.now() + timeoutMs;
  for (;; ) {
    const deployment = await get(deadline);
    if (deployment.status === "recorded")
      return deployment;
    if (deployment.status === "failed")
      throw new DeploymentFailedError(deployment);
    const left = deadline - options.now();
    if (left <= 0)
      throw new DeploymentWaitTimeoutError(deployment, timeoutMs);
    await options.sleep(Math.min(intervalMs, left));
  }
}

// packages/client/src/client.ts
var DEFAULT_RETRY_FOR_MS = 120000;
var DEFAULT_REQUEST_TIMEOUT_MS = 30000;
var DEPLOYMENTS = "v1/deployments";
var INCIDENTS = "v1/incidents";
function parseBaseUrl(baseUrl) {
  let url;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(String(baseUrl))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${url.protocol}`);
  }
  if (!url.pathname.endsWith("/"))
    url.pathname += "/";
  url.search = "";
  url.hash = "";
  return url;
}
function createShiplogClient(options) {
  if (!options.apiKey)
    throw new TypeError("apiKey is required");
  const maxRetries = options.maxRetries ?? Number.POSITIVE_INFINITY;
  if (!(Number.isInteger(maxRetries) || maxRetries === Number.POSITIVE_INFINITY) || maxRetries < 0) {
    throw new TypeError("maxRetries must be a whole number ≥ 0");
  }
  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  if (Number.isNaN(retryForMs) || retryForMs < 0) {
    throw new TypeError("retryForMs must be a number of milliseconds ≥ 0");
  }
  if (maxRetries === Number.POSITIVE_INFINITY && retryForMs === Number.POSITIVE_INFINITY) {
    throw new TypeError("retryForMs: Infinity needs a maxRetries, or a Shiplog that stays down is retried forever");
  }
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const { send, endpoint } = createTransport({
    baseUrl: parseBaseUrl(options.baseUrl),
    apiKey: options.apiKey,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    maxRetries,
    retryForMs,
    sleep,
    now,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    ...options.onRetry ? { onRetry: options.onRetry } : {}
  });
  const receiptPath = (id) => `${DEPLOYMENTS}/${encodeURIComponent(id)}`;
  async function getDeployment(id, retryUntil) {
    const call = { method: "GET", path: receiptPath(id) };
    const response = await send(retryUntil === undefined ? call : { ...call, retryUntil });
    return await response.json();
  }
  const receiptUrl = (id) => endpoint({ method: "GET", path: receiptPath(id) }).href;
  return {
    async createDeployment(input, createOptions = {}) {
      const idempotencyKey = createOptions.idempotencyKey ?? newIdempotencyKey();
      const call = {
        method: "POST",
        path: DEPLOYMENTS,
        body: JSON.stringify(input),
        headers: { "idempotency-key": idempotencyKey }
      };
      const response = await send(call);
      await response.body?.cancel();
      const location = response.headers.get("location");
      const id = location === null ? undefined : deploymentIdFromLocation(location);
      if (location === null || id === undefined) {
        throw new ShiplogError({
          type: "about:blank",
          title: "No deployment id in the answer",
          status: response.status,
          detail: `The deployment was accepted (${response.status}) but the API sent ` + `${location === null ? "no Location header" : `Location ${JSON.stringify(location)}`}, ` + "so its id is unknown: this API predates deployment receipts."
        });
      }
      return { id, location: receiptUrl(id), idempotencyKey };
    },
    getDeployment: (id) => getDeployment(id),
    receiptUrl,
    pageUrl: (id) => endpoint({ method: "GET", path: `ui/deployments/${encodeURIComponent(id)}` }).href,
    async listDeployments(query = {}) {
      const response = await send({
        method: "GET",
        path: DEPLOYMENTS,
        query: listQueryParams(query)
      });
      return await response.json();
    },
    waitUntilRecorded(id, waitOptions = {}) {
      return pollUntilRecorded((deadline) => getDeployment(id, deadline), {
        ...waitOptions,
        sleep,
        now
      });
    },
    async voidDeployment(id, options = {}) {
      const path = receiptPath(id);
      const body = options.reason === undefined ? undefined : JSON.stringify({ reason: options.reason });
      const response = await send({
        method: "DELETE",
        path,
        ...body === undefined ? {} : { body }
      });
      return await response.json();
    },
    async putDeploymentCommits(id, input) {
      const path = `${receiptPath(id)}/commits`;
      const response = await send({ method: "PUT", path, body: JSON.stringify(input) });
      await response.body?.cancel();
    },
    async getDeploymentCommits(id) {
      const path = `${receiptPath(id)}/commits`;
      const response = await send({ method: "GET", path });
      return await response.json();
    },
    async openIncident(input) {
      const body = JSON.stringify(input);
      const response = await send({ method: "POST", path: INCIDENTS, body, repeatable: false });
      return await response.json();
    },
    async changeIncident(id, patch) {
      const path = `${INCIDENTS}/${encodeURIComponent(id)}`;
      const response = await send({ method: "PATCH", path, body: JSON.stringify(patch) });
      return await response.json();
    },
    async getIncident(id) {
      const response = await send({ method: "GET", path: `${INCIDENTS}/${encodeURIComponent(id)}` });
      return await response.json();
    },
    async listIncidents(query = {}) {
      const params = queryParams({ ...query });
      const response = await send({ method: "GET", path: INCIDENTS, query: params });
      return await response.json();
    },
    async listEnvironments() {
      const response = await send({ method: "GET", path: "v1/environments" });
      return await response.json();
    },
    async placeEnvironment(name, place) {
      const path = `v1/environments/${encodeURIComponent(name)}`;
      const response = await send({ method: "PUT", path, body: JSON.stringify(place) });
      return await response.json();
    },
    async listCommits(query = {}) {
      const { production, ...rest } = query;
      const params = queryParams({
        ...rest,
        ...production === undefined ? {} : { production: String(production) }
      });
      const response = await send({ method: "GET", path: "v1/commits", query: params });
      return await response.json();
    },
    async getDoraMetrics(query = {}) {
      const params = queryParams({ ...query });
      const response = await send({ method: "GET", path: "v1/metrics/dora", query: params });
      return await response.json();
    }
  };
}

// packages/client/src/notify-output.ts
function warn(output, message) {
  if (output.warn)
    output.warn(message);
  else
    output.err(`warning: ${message}`);
}
function note(output, message) {
  if (output.note)
    output.note(message);
  else
    output.err(message);
}

// packages/client/src/retry-notice.ts
var STATUS_TEXT = {
  429: "Too Many Requests",
  503: "Service Unavailable"
};
function describeRetry(retry) {
  const what = retry.status === undefined ? `Could not reach Shiplog (${networkReason(retry.error)})` : `Shiplog answered ${retry.status} ${STATUS_TEXT[retry.status] ?? ""}`.trimEnd();
  const bounded = Number.isFinite(retry.maxRetries);
  const attempt = `attempt ${retry.attempt}${bounded ? ` of ${retry.maxRetries + 1}` : ""}`;
  const limit = Number.isFinite(retry.retryForMs) ? `, giving up after ${describeDuration(retry.retryForMs)}` : "";
  return `${what}; retrying in ${describeDuration(retry.delayMs)} (${attempt}${limit})`;
}

// packages/client/src/command-client.ts
function commandClient(plan, output) {
  return createShiplogClient({
    baseUrl: plan.url,
    apiKey: plan.apiKey,
    ...plan.retryForMs === undefined ? {} : { retryForMs: plan.retryForMs },
    onRetry: (retry) => note(output, describeRetry(retry))
  });
}

// packages/schema/src/code-points.ts
var isHigh = (c) => c >= 55296 && c <= 56319;
var isLow = (c) => c >= 56320 && c <= 57343;
function codePointLength(s) {
  let n = 0;
  for (let i = 0;i < s.length; i++) {
    if (isHigh(s.charCodeAt(i)) && i + 1 < s.length && isLow(s.charCodeAt(i + 1)))
      i++;
    n++;
  }
  return n;
}
function hasLoneSurrogate(s) {
  for (let i = 0;i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isHigh(c)) {
      if (i + 1 < s.length && isLow(s.charCodeAt(i + 1)))
        i++;
      else
        return true;
    } else if (isLow(c)) {
      return true;
    }
  }
  return false;
}
function hasControlChar(s) {
  for (let i = 0;i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 31 || c === 127)
      return true;
  }
  return false;
}

// packages/schema/src/text.ts
var invalid = (error) => ({ error });
var isInvalid = (outcome) => typeof outcome === "object" && outcome !== null && ("error" in outcome);
var CONTROL_CHARS = invalid("must not contain control characters");
var LONE_SURROGATE = invalid("must not contain unpaired surrogates (invalid Unicode)");
function checkText(raw, maxLength) {
  if (hasControlChar(raw))
    return CONTROL_CHARS;
  if (hasLoneSurrogate(raw))
    return LONE_SURROGATE;
  const trimmed = raw.trim();
  if (maxLength !== undefined && trimmed.length > maxLength) {
    const length = codePointLength(trimmed);
    if (length > maxLength)
      return invalid(`must be at most ${maxLength} characters (got ${length})`);
  }
  return trimmed;
}

// packages/schema/src/reported-time.ts
var REPORTED_TIME_MAX_FUTURE_MS = 5 * 60 * 1000;
var MAX_FUTURE_MICROS = BigInt(REPORTED_TIME_MAX_FUTURE_MS) * 1000n;
var TOO_FAR_AHEAD = invalid(`must not be more than ${REPORTED_TIME_MAX_FUTURE_MS / 60000} minutes in the future`);
function notAhead(instant, nowMicros) {
  return instant.micros > nowMicros + MAX_FUTURE_MICROS ? TOO_FAR_AHEAD : instant;
}

// packages/schema/src/deployment.ts
var REPOSITORY_FULL_NAME_PATTERN = "^[^\\s/]+(?:/[^\\s/]+)+$";
var COMMIT_HASH_PATTERN = "^[0-9a-fA-F]{7,70}$";
var DeployedCommit = Type.Union([Type.String(), Type.Null()], {
  description: "The commit deployed, lower-case hexadecimal; null when it is unknown: an integration whose sender named no commit"
});
var DeploymentInput = Type.Object({
  repositoryFullName: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: REPOSITORY_FULL_NAME_PATTERN,
    format: "name",
    description: "Repository as owner/name; nested groups (group/sub/repo) are allowed",
    examples: ["acme/shop", "acme/platform/api"]
  }),
  environment: Type.String({
    minLength: 1,
    maxLength: 255,
    format: "name",
    description: "Environment deployed to",
    examples: ["production", "staging"]
  }),
  app: Type.String({
    minLength: 1,
    maxLength: 255,
    format: "name",
    description: "Application or service that was deployed",
    examples: ["api"]
  }),
  version: Type.String({
    minLength: 1,
    maxLength: 70,
    description: "Version label of the deployed build",
    examples: ["1.4.2", "v2026.05.01-3"]
  }),
  commitHash: Type.String({
    minLength: 7,
    maxLength: 70,
    pattern: COMMIT_HASH_PATTERN,
    description: "Git commit SHA that was deployed (stored lower-case)",
    examples: ["9fceb02d0ae598e95dc970b74767f19372d61af8"]
  }),
  description: Type.Optional(Type.String({
    maxLength: 255,
    description: "Free-text note about the deployment; null or blank means none",
    examples: ["Hotfix for checkout timeout"]
  })),
  author: Type.Optional(Type.String({
    maxLength: 255,
    description: "Who triggered the deployment; null or blank means unknown",
    examples: ["octocat"]
  })),
  deployedAt: Type.Optional(Type.String({
    format: "date-time",
    description: "RFC 3339 date-time with a time zone, at most 5 minutes in the future; defaults to now",
    examples: ["2026-05-01T12:00:00Z", "2026-05-01T14:00:00.123456+02:00"]
  })),
  monorepoPath: Type.Optional(Type.String({
    maxLength: 255,
    description: "Relative path of the app inside a monorepo, without '..' segments",
    examples: ["apps/api"]
  }))
}, {
  $id: "DeploymentInput",
  additionalProperties: false,
  description: "A deployment to record"
});
var Nullable = (description) => Type.Union([Type.String(), Type.Null()], { description });
var DeploymentFields = Type.Object({
  repositoryFullName: Type.String({ description: "Trimmed repository full name" }),
  environment: Type.String({ description: "Trimmed environment" }),
  app: Type.String({ description: "Trimmed app" }),
  version: Type.String({ description: "Trimmed version" }),
  commitHash: DeployedCommit,
  description: Nullable("Trimmed description, or null when omitted"),
  author: Nullable("Trimmed author, or null when omitted"),
  deployedAt: Type.String({
    format: "date-time",
    description: "The instant sent, or the request time when omitted, in UTC as Postgres stores it (ms, or µs when finer)"
  }),
  monorepoPath: Nullable("Path without leading './' or trailing '/', or null when omitted")
}, {
  $id: "DeploymentFields",
  additionalProperties: false,
  description: "A validated, normalized deployment"
});
var DeploymentAccepted = Type.Object({ status: Type.Literal(202, { description: "Always 202" }) }, { additionalProperties: false });
var DeploymentHeaders = Type.Object({
  "Idempotency-Key": Type.Optional(Type.String({
    minLength: 1,
    maxLength: 257,
    description: "Makes a retry safe for 24 hours: the same key with the same body is answered `202` again and queues nothing; with another body it is a `422`. 1 to 255 printable ASCII characters, for example a UUID, bare or in double quotes (257 with them)."
  }))
});

// packages/schema/src/date-time.ts
var RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
var PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
var DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
var SECONDS_PER_DAY = 86400;
var MICROS_PER_SECOND = 1000000n;
var SYNTAX = { ok: false, reason: "syntax" };
var RANGE = { ok: false, reason: "range" };
var isLeapYear = (y) => y % 4 === 0 && y % 100 !== 0 || y % 400 === 0;
function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
function civilFromDays(days) {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
var EARLIEST_MICROS = BigInt(daysFromCivil(1, 1, 1) * SECONDS_PER_DAY) * MICROS_PER_SECOND;
var LATEST_MICROS = BigInt(daysFromCivil(1e4, 1, 1) * SECONDS_PER_DAY) * MICROS_PER_SECOND - 1n;
function roundHalfEven(x) {
  const rounded = Math.round(x);
  return rounded - x === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}
function fractionMicros(digits) {
  return digits === "" ? 0 : roundHalfEven(Number.parseFloat(`0.${digits}`) * 1e6);
}
var pad = (n, width) => String(n).padStart(width, "0");
function instantFromMicros(micros) {
  let seconds = micros / MICROS_PER_SECOND;
  let fraction = micros % MICROS_PER_SECOND;
  if (fraction < 0n) {
    fraction += MICROS_PER_SECOND;
    seconds -= 1n;
  }
  const secondsOfDay = Number((seconds % 86400n + 86400n) % 86400n);
  const days = Number((seconds - BigInt(secondsOfDay)) / 86400n);
  const [year, month, day] = civilFromDays(days);
  const hh = Math.floor(secondsOfDay / 3600);
  const mm = Math.floor(secondsOfDay % 3600 / 60);
  const ss = secondsOfDay % 60;
  const subsecond = fraction % 1000n === 0n ? pad(fraction / 1000n, 3) : pad(fraction, 6);
  const iso = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${subsecond}Z`;
  return { micros, iso };
}
function parseDateTime(s) {
  const m = RFC3339.exec(s);
  if (m === null)
    return SYNTAX;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const offsetHours = m[8] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[8] === undefined ? 0 : Number(m[10]);
  if (year < 1 || month < 1 || month > 12 || day < 1)
    return RANGE;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1] ?? 0;
  if (day > monthDays || hour > 23 || minute > 59 || second > 59)
    return RANGE;
  if (offsetHours > 14 || offsetMinutes > 59)
    return RANGE;
  const sign = m[8] === "-" ? -1 : 1;
  const offsetSeconds = sign * (offsetHours * 60 + offsetMinutes) * 60;
  const utcSeconds = daysFromCivil(year, month, day) * SECONDS_PER_DAY + (hour * 60 + minute) * 60 + second - offsetSeconds;
  const micros = BigInt(utcSeconds) * MICROS_PER_SECOND + BigInt(fractionMicros(m[7] ?? ""));
  if (micros < EARLIEST_MICROS || micros > LATEST_MICROS)
    return RANGE;
  return { ok: true, instant: instantFromMicros(micros) };
}
function parseDateOrDateTime(s) {
  const m = PLAIN_DATE.exec(s);
  return m === null ? parseDateTime(s) : parseDateTime(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
}

// packages/schema/src/names.ts
function nameKey(name) {
  return name.normalize("NFC").toLowerCase();
}
var REFUSED = /[\p{Default_Ignorable_Code_Point}\u0080-\u009f\u2028\u2029]/u;
var BIDI_CONTROLS = {
  "061C": "ARABIC LETTER MARK",
  "200E": "LEFT-TO-RIGHT MARK",
  "200F": "RIGHT-TO-LEFT MARK",
  "202A": "LEFT-TO-RIGHT EMBEDDING",
  "202B": "RIGHT-TO-LEFT EMBEDDING",
  "202C": "POP DIRECTIONAL FORMATTING",
  "202D": "LEFT-TO-RIGHT OVERRIDE",
  "202E": "RIGHT-TO-LEFT OVERRIDE",
  "2066": "LEFT-TO-RIGHT ISOLATE",
  "2067": "RIGHT-TO-LEFT ISOLATE",
  "2068": "FIRST STRONG ISOLATE",
  "2069": "POP DIRECTIONAL ISOLATE"
};
var INVISIBLES = {
  "00AD": "SOFT HYPHEN",
  "034F": "COMBINING GRAPHEME JOINER",
  "200B": "ZERO WIDTH SPACE",
  "200C": "ZERO WIDTH NON-JOINER",
  "200D": "ZERO WIDTH JOINER",
  "2028": "LINE SEPARATOR",
  "2029": "PARAGRAPH SEPARATOR",
  "2060": "WORD JOINER",
  FEFF: "ZERO WIDTH NO-BREAK SPACE"
};
var hexOf = (codePoint) => codePoint.toString(16).toUpperCase().padStart(4, "0");
function describeCodePoint(codePoint) {
  const hex = hexOf(codePoint);
  const name = BIDI_CONTROLS[hex] ?? INVISIBLES[hex];
  return name === undefined ? `U+${hex}` : `U+${hex} ${name}`;
}
function whyRefused(codePoint) {
  if (hexOf(codePoint) in BIDI_CONTROLS)
    return "it changes the direction of the text";
  if (codePoint <= 159)
    return "it is a control character";
  if (codePoint === 8232 || codePoint === 8233)
    return "it breaks the line";
  return "it is invisible";
}
var UNPRINTABLE = new RegExp(`[\\u0000-\\u001f\\u007f]|${REFUSED.source}`, "gu");
function refusedCodePoint(name) {
  const found = REFUSED.exec(name);
  return found === null ? undefined : found[0].codePointAt(0);
}
function caseFolded(text) {
  for (let folded = text;; ) {
    const next = folded.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC").replace(/i\u0307/g, "i");
    if (next === folded)
      return next;
    folded = next;
  }
}
var PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
function firstLookAlike(name) {
  let prefix = "";
  for (const character of name) {
    prefix += character;
    if (caseFolded(prefix) !== nameKey(prefix))
      return character;
  }
  return [...name].at(-1) ?? "";
}
var STRAY_MARK = /(?:^|[^\p{L}\p{N}\p{M}])(\p{M})/u;
function lookAlikeProblem(name) {
  if (PRINTABLE_ASCII.test(name))
    return;
  const stray = STRAY_MARK.exec(name)?.[1];
  if (stray !== undefined) {
    const described = describeCodePoint(stray.codePointAt(0));
    return `must not contain ${described} on its own: a combining mark must follow the letter it marks`;
  }
  const folded = caseFolded(name);
  if (folded === nameKey(name))
    return;
  const culprit = firstLookAlike(name);
  const described = `${describeCodePoint(culprit.codePointAt(0))} (${culprit})`;
  const why = `must not contain ${described}: names are matched ignoring case, and this one would be apart from "${folded}", which reads the same`;
  const writable = folded !== "" && folded.trim() === folded && refusedCodePoint(folded) === undefined && !STRAY_MARK.test(folded);
  return writable ? `${why}; write it "${folded}", in any case` : `${why}; remove it`;
}
function checkPrintableName(text, maxLength) {
  const refused = refusedCodePoint(text);
  if (refused !== undefined) {
    return invalid(`must not contain ${describeCodePoint(refused)}: ${whyRefused(refused)}, so two names could look the same; remove it`);
  }
  const normalized = text.normalize("NFC");
  if (maxLength !== undefined && normalized.length > maxLength) {
    const length = codePointLength(normalized);
    if (length > maxLength) {
      return invalid(`must be at most ${maxLength} characters in Unicode NFC, the form names are stored in (got ${length})`);
    }
  }
  return normalized;
}
function checkName(text, maxLength) {
  const printable = checkPrintableName(text, maxLength);
  if (isInvalid(printable))
    return printable;
  const lookAlike = lookAlikeProblem(printable);
  return lookAlike === undefined ? printable : invalid(lookAlike);
}
var EMPTY_KEY_NAME = invalid("must not be empty: name the key after who or what uses it");

// packages/schema/src/uuid.ts
var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// packages/schema/src/page-cursor.ts
var SHAPE = /^(-?\d{1,19})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
var BASE64URL = /^[A-Za-z0-9_-]*$/;
var toBase64Url = (text) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
function decodeCursor(encoded) {
  if (!BASE64URL.test(encoded) || encoded.length % 4 === 1)
    return;
  const match = SHAPE.exec(atob(encoded.replaceAll("-", "+").replaceAll("_", "/")));
  if (!match)
    return;
  const deployedAtMicros = BigInt(match[1]);
  if (deployedAtMicros < EARLIEST_MICROS || deployedAtMicros > LATEST_MICROS)
    return;
  const id = match[2];
  return UUID.test(id) ? { deployedAtMicros, id } : undefined;
}
var COMMIT_SHAPE = /^(.+)\.([0-9a-f]{40}|[0-9a-f]{64})$/;
function decodeCommitCursor(encoded) {
  if (!BASE64URL.test(encoded) || encoded.length % 4 === 1)
    return;
  const match = COMMIT_SHAPE.exec(atob(encoded.replaceAll("-", "+").replaceAll("_", "/")));
  if (!match)
    return;
  const delivery = decodeCursor(toBase64Url(match[1]));
  return delivery && { ...delivery, sha: match[2] };
}

// packages/schema/src/formats.ts
var BAD_DATE_SYNTAX = invalid("must be an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z");
var BAD_DATE_RANGE = invalid("must be a real date and time from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (in UTC): a day that exists in that month, hour 00-23, minute and second 00-59, offset hours 00-14");
var BAD_DAY_SYNTAX = invalid("must be a date (2026-05-01, meaning its midnight UTC) or an RFC 3339 date-time with a time zone, for example 2026-05-01T12:00:00Z");
var BAD_UUID = invalid("must be a UUID such as 0190f3c4-8a5e-7b2c-9d41-3f6a2b1c0d9e (from the Location of the 202)");
var BAD_CURSOR = invalid("is not a cursor this API returned; pass nextCursor of the previous page unchanged");
var FORMATS = {
  "date-time": (value) => {
    const parsed = parseDateTime(value);
    if (parsed.ok)
      return parsed.instant;
    return parsed.reason === "syntax" ? BAD_DATE_SYNTAX : BAD_DATE_RANGE;
  },
  "date-or-date-time": (value) => {
    const parsed = parseDateOrDateTime(value);
    if (parsed.ok)
      return parsed.instant;
    return parsed.reason === "syntax" ? BAD_DAY_SYNTAX : BAD_DATE_RANGE;
  },
  uuid: (value) => UUID.test(value) ? value.toLowerCase() : BAD_UUID,
  cursor: (value) => decodeCursor(value) ?? BAD_CURSOR,
  "commit-cursor": (value) => decodeCommitCursor(value) ?? BAD_CURSOR,
  name: checkName
};
for (const name of Object.keys(FORMATS)) {
  const parse = FORMATS[name];
  Set2(name, (value) => !isInvalid(parse(value)));
}

// packages/schema/src/parameters.ts
var DateTimeParameter = (description) => Type.Unsafe({
  type: "string",
  anyOf: [{ format: "date" }, { format: "date-time" }],
  parameterFormat: "date-or-date-time",
  description
});
var CursorParameter = (description) => Type.Unsafe({ type: "string", format: "cursor", maxLength: 200, description });
var NoQuery = Type.Object({}, { additionalProperties: false });
var PageParameters = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: "Page size, at most 100" })),
  cursor: Type.Optional(CursorParameter("`nextCursor` of the previous page"))
};
var NameParameter = (description) => Type.Optional(Type.String({ minLength: 1, maxLength: 255, format: "name", description }));
var EnvironmentParameter = Type.String({
  minLength: 1,
  maxLength: 255,
  format: "name",
  description: "The environment (any case), e.g. production",
  examples: ["production"]
});
var IdParameters = (description) => Type.Object({
  id: Type.String({
    format: "uuid",
    description,
    examples: ["0190f3c4-5b2e-7c1d-9e8f-a1b2c3d4e5f6"]
  })
});
var NOT_EMPTY = invalid("must not be empty");
var IS_REQUIRED = invalid("is required");
var NOT_TEXT = invalid("must be text (percent-encoded UTF-8)");
var patterns = new WeakMap;

// packages/schema/src/catalog.ts
var LatestDeployment = Type.Object({
  id: Type.String({ format: "uuid", description: "The deployment’s id (its receipt)" }),
  app: Type.String({ description: "The application deployed" }),
  environment: Type.String({ description: "The environment deployed to" }),
  version: Type.String({ description: "The version deployed" }),
  commitHash: DeployedCommit,
  deployedAt: Type.String({ format: "date-time", description: "When, in UTC" })
}, { $id: "LatestDeployment" });
var Latest = (description) => Type.Union([LatestDeployment, Type.Null()], { description });
var ApplicationSummary = Type.Object({
  app: Type.String({ description: "Display spelling: the first one seen" }),
  repositoryFullName: Type.String({ description: "Its repository, owner/name" }),
  monorepoPath: Type.Union([Type.String(), Type.Null()], {
    description: "From its latest deployment that named one"
  }),
  deploymentCount: Type.Integer({ minimum: 0, description: "Recorded deployments of it" }),
  lastDeployment: Latest("Its latest deployment by deployedAt, in any environment; null if none")
}, { $id: "ApplicationSummary" });
var ApplicationList = Type.Object({ data: Type.Array(ApplicationSummary) });
var EnvironmentSummary = Type.Object({
  environment: Type.String({ description: "Display spelling: the first one seen" }),
  position: Type.Integer({
    minimum: 0,
    maximum: 1000,
    description: "Its place in the pipeline, lower first: as set, else by its name (dev 10, test or qa 20, others 30, staging 40, production 50)"
  }),
  production: Type.Boolean({
    description: "Whether it is production: as set, else by its name (prod, production, prd or live as a word)"
  }),
  deploymentCount: Type.Integer({ minimum: 0, description: "Recorded deployments into it" }),
  lastDeployment: Latest("The latest deployment into it by deployedAt; null if none")
}, { $id: "EnvironmentSummary" });
var EnvironmentList = Type.Object({ data: Type.Array(EnvironmentSummary) });
var EnvironmentPlaceInput = Type.Object({
  position: Type.Optional(Type.Union([
    Type.Integer({ minimum: 0, maximum: 1000, description: "Lower comes first" }),
    Type.Null()
  ], { description: "Its place in the pipeline; null: by its name again" })),
  production: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], {
    description: "Whether it is production; null: by its name again"
  }))
}, { $id: "EnvironmentPlaceInput", additionalProperties: false });
var EnvironmentNameParams = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 255,
    format: "name",
    description: "The environment, any case (percent-encoded)",
    examples: ["production"]
  })
});
var DeploymentMatrix = Type.Object({
  environments: Type.Array(Type.String(), {
    description: "Column order of every row: the environments in pipeline order"
  }),
  rows: Type.Array(Type.Object({
    app: Type.String({ description: "The application of this row" }),
    repositoryFullName: Type.String({ description: "Its repository, owner/name" }),
    cells: Type.Array(Latest("The latest deployment into that environment, or null"), {
      description: "One per environment, null where never deployed"
    })
  }))
}, { $id: "DeploymentMatrix" });
var DeploymentFrequency = Type.Object({
  environment: Type.String({ description: "The environment counted" }),
  bucket: Type.Union([Type.Literal("day"), Type.Literal("week")], {
    description: "UTC days, or ISO weeks from Monday"
  }),
  since: Type.String({ format: "date-time", description: "Start of the first bucket" }),
  until: Type.String({ format: "date-time", description: "End of the window (exclusive)" }),
  buckets: Type.Array(Type.String({ format: "date-time" }), {
    description: "Start of each bucket"
  }),
  applications: Type.Array(Type.Object({
    app: Type.String({ description: "An application that deployed there in the window" }),
    repositoryFullName: Type.String({ description: "Its repository, owner/name" }),
    counts: Type.Array(Type.Integer({ minimum: 0 }), {
      description: "One per bucket, zero-filled"
    })
  })),
  totals: Type.Array(Type.Integer({ minimum: 0 }), {
    description: "All applications, per bucket"
  })
}, { $id: "DeploymentFrequency" });
var ByRepositoryQuery = Type.Object({
  repository: NameParameter("Only this repository, owner/name (any case)")
}, { additionalProperties: false });
var FrequencyQuery = Type.Object({
  environment: EnvironmentParameter,
  bucket: Type.Optional(Type.Union([Type.Literal("day"), Type.Literal("week")], {
    default: "day",
    description: "UTC days, or ISO weeks starting on Monday"
  })),
  since: Type.Optional(DateTimeParameter("Window start (default: 30 days, or 12 weeks, before until; never before 0001-01-01)")),
  until: Type.Optional(DateTimeParameter("Window end, exclusive (default: now)"))
}, { additionalProperties: false });
// packages/schema/src/change-failure.ts
var ChangeFailureSignal = Type.Object({
  kind: Type.Union([Type.Literal("rollback"), Type.Literal("revert"), Type.Literal("incident")], {
    description: "rollback: a later deployment rolled back to the one before it; revert: a later deployment reverts a commit it was the first to deliver; incident: an incident names it as its cause"
  }),
  deploymentId: Type.Union([Type.String({ format: "uuid" }), Type.Null()], {
    description: "The rollback or the reverting deployment; null for an incident"
  }),
  incidentId: Type.Union([Type.String({ format: "uuid" }), Type.Null()], {
    description: "The incident; null otherwise"
  }),
  revertedCommit: Type.Union([Type.String(), Type.Null()], {
    description: "For a revert, the commit reverted; null otherwise"
  }),
  recoveredAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "When this recovered it: the deployedAt of the rollback or revert, the resolvedAt of the incident (null while open)"
  })
}, { $id: "ChangeFailureSignal" });
var ChangeFailure = Type.Object({
  signals: Type.Array(ChangeFailureSignal, {
    description: "Every signal, earliest recovery first (open incidents last)"
  }),
  recoveredAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "The earliest recovery; null while none has recovered it"
  })
}, { $id: "ChangeFailure" });
// packages/schema/src/change-type.ts
var ChangeType = Type.Union([
  Type.Literal("initial"),
  Type.Literal("redeploy"),
  Type.Literal("rollback"),
  Type.Literal("forward")
], {
  $id: "ChangeType",
  description: "initial: none before; redeploy: the same commit as the one before; rollback: the commit of an earlier one; forward: otherwise"
});
// packages/schema/src/compare.ts
var Environment = (description, example) => Type.String({ minLength: 1, maxLength: 255, format: "name", description, examples: [example] });
var CompareQuery = Type.Object({
  app: Type.String({
    minLength: 1,
    maxLength: 255,
    format: "name",
    description: "The application (any case)",
    examples: ["checkout"]
  }),
  from: Environment("The environment ahead (any case), e.g. staging", "staging"),
  to: Environment("The environment behind (any case), e.g. production", "production"),
  repository: NameParameter("Its repository, owner/name (any case): needed when the name is used in several")
}, { additionalProperties: false });
var ComparedDeployment = Type.Object({
  id: Type.String({ format: "uuid" }),
  version: Type.String(),
  commitHash: DeployedCommit,
  deployedAt: Type.String({ format: "date-time" })
}, { $id: "ComparedDeployment" });
var Side = Type.Object({
  environment: Type.String({ description: "Display spelling" }),
  deployment: Type.Union([ComparedDeployment, Type.Null()], {
    description: "What runs there now: its latest recorded deployment; null if never deployed"
  })
});
var WaitingCommit = Type.Object({
  sha: Type.String(),
  subject: Type.Union([Type.String(), Type.Null()], { description: "null when not sent" }),
  author: Type.Union([Type.String(), Type.Null()], { description: "null when not sent" }),
  committedAt: Type.String({ format: "date-time", description: "Committer time" }),
  url: Type.Union([Type.String({ format: "uri" }), Type.Null()], {
    description: "Its page on the code host; null when the pipeline sent no webUrl"
  })
}, { $id: "WaitingCommit" });
var Comparison = Type.Object({
  app: Type.String(),
  repositoryFullName: Type.String(),
  from: Side,
  to: Side,
  commits: Type.Array(WaitingCommit, {
    description: "Delivered to from and not to to, newest committer time first (at most 1,000)"
  }),
  deployments: Type.Array(ComparedDeployment, {
    description: "The deployments of from since the latest whose commit to has, newest first"
  }),
  complete: Type.Boolean({
    description: "false when commits may be missing from the list: reason says why"
  }),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: "Why the list may be incomplete; null when complete"
  })
}, { $id: "Comparison" });
// packages/schema/src/web-url.ts
var MAX_WEB_URL = 500;
var BAD_WEB_URL = invalid("must be the repository’s https address on its code host, such as https://github.com/acme/shop: no user or password, query or fragment");
function checkWebUrl(raw) {
  const text = checkText(raw, MAX_WEB_URL);
  if (isInvalid(text))
    return text;
  let url;
  try {
    url = new URL(text);
  } catch {
    return BAD_WEB_URL;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.search || url.hash || !/^https:\/\/[^/@\s]+(\/[^?#\s]*)?$/.test(text)) {
    return BAD_WEB_URL;
  }
  return text.replace(/\/+$/, "").replace(/\.git$/, "");
}

// packages/schema/src/deployment-commits.ts
var MAX_DEPLOYMENT_COMMITS = 5000;
var FIRST_DEPLOYMENT_HISTORY = 1000;
var SHA_PATTERN = "^[0-9a-fA-F]{40}([0-9a-fA-F]{24})?$";
var Sha = (description) => Type.String({ pattern: SHA_PATTERN, description: `${description}: a full SHA-1 or SHA-256` });
var MAX_COMMIT_TEXT = 200;
var DeploymentCommit = Type.Object({
  sha: Sha("The commit"),
  committedAt: Type.String({ format: "date-time", description: "Committer time" }),
  authoredAt: Type.String({ format: "date-time", description: "Author time" }),
  reverts: Type.Array(Sha("A commit it reverts"), {
    maxItems: 100,
    description: 'Commits its message reverts ("This reverts commit <sha>"); empty for most'
  }),
  subject: Type.Optional(Type.String({
    maxLength: MAX_COMMIT_TEXT,
    description: "The first line of its message (git log %s); left out when not sent"
  })),
  author: Type.Optional(Type.String({
    maxLength: MAX_COMMIT_TEXT,
    description: "Its author’s name (git log %an); left out when not sent"
  }))
}, { $id: "DeploymentCommit", additionalProperties: false });
var DeploymentCommitsInput = Type.Object({
  commits: Type.Array(DeploymentCommit, {
    maxItems: MAX_DEPLOYMENT_COMMITS,
    description: "git log <previous deployment>..<this commit>, newest first or in any order"
  }),
  truncated: Type.Optional(Type.Boolean({ description: "True when the pipeline sent only the newest 5,000" })),
  webUrl: Type.Optional(Type.String({
    format: "uri",
    pattern: "^https://",
    maxLength: 500,
    description: "The repository’s address on its code host (https, no credentials), for links to its commits",
    examples: ["https://github.com/acme/shop"]
  }))
}, { $id: "DeploymentCommitsInput", additionalProperties: false });
var DeploymentCommits = Type.Object({
  deploymentId: Type.String({ format: "uuid" }),
  truncated: Type.Boolean({ description: "The pipeline capped the list at 5,000" }),
  webUrl: Type.Union([Type.String({ format: "uri" }), Type.Null()], {
    description: "The repository’s address as sent with the list; a commit is at commitUrl of it"
  }),
  commits: Type.Array(DeploymentCommit)
}, { $id: "DeploymentCommits" });
function commitTextLine(text) {
  const clean = [...text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim()];
  return clean.length === 0 ? undefined : clean.slice(0, MAX_COMMIT_TEXT).join("").trim();
}
var SHA = new RegExp(SHA_PATTERN);
// packages/schema/src/deployment-status.ts
var Nullable2 = (schema, description) => Type.Union([schema, Type.Null()], { description });
var DeploymentSource = Type.String({
  pattern: "^[a-z][a-z0-9-]{0,31}$",
  description: "Where it came from: `api` (a request of your own), `cli` (Shiplog’s client: the `shiplog` CLI, the GitHub Action, the GitLab template), `github` or `gitlab` (an integration’s webhook), and later integrations by their name"
});
var DeploymentFailure = Type.Object({
  reason: Type.String({ description: "The error of the last attempt" }),
  attempts: Type.Integer({ minimum: 1, description: "How many times recording was tried" }),
  failedAt: Type.String({ format: "date-time", description: "When the last attempt failed" })
}, { $id: "DeploymentFailure" });
var DeploymentVoidInput = Type.Object({
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "Why it is voided, for the audit" }))
}, { $id: "DeploymentVoidInput", additionalProperties: false });
var DeploymentVoided = Type.Object({
  at: Type.String({ format: "date-time", description: "When it was voided" }),
  reason: Type.Union([Type.String(), Type.Null()], { description: "Why, as given, or null" }),
  keyName: Type.Union([Type.String(), Type.Null()], { description: "The name of the key" }),
  keyPrefix: Type.Union([Type.String(), Type.Null()], {
    description: "The display prefix of the key"
  })
}, { $id: "DeploymentVoided" });
var DeploymentStatus = Type.Object({
  id: Type.String({ format: "uuid", description: "The id in the Location of the 202" }),
  status: Type.Union([
    Type.Literal("queued"),
    Type.Literal("recorded"),
    Type.Literal("failed"),
    Type.Literal("voided")
  ], {
    description: "queued: accepted, not yet recorded (maybe being retried); recorded; failed: every attempt failed; voided: recorded, then voided (see voided)"
  }),
  repositoryFullName: Type.String({ description: "The repository, owner/name" }),
  environment: Type.String({
    description: "Display spelling once recorded; as sent while queued"
  }),
  app: Type.String({ description: "Display spelling once recorded; as sent while queued" }),
  version: Type.String({ description: "The version deployed" }),
  commitHash: DeployedCommit,
  description: Nullable2(Type.String(), "The note sent with it, or null"),
  author: Nullable2(Type.String(), "Who triggered it, or null"),
  deployedAt: Type.String({
    format: "date-time",
    description: "When it was deployed, in UTC (the request time when none was sent)"
  }),
  monorepoPath: Nullable2(Type.String(), "Where the app lives in the repository, or null"),
  receivedAt: Type.String({ format: "date-time", description: "When the API accepted it" }),
  source: DeploymentSource,
  recordedAt: Nullable2(Type.String({ format: "date-time" }), "When the worker stored it; null until recorded"),
  changeType: Type.Union([ChangeType, Type.Null()], {
    description: "Once recorded, what it changed in its application and environment (see ChangeType); null while queued or failed"
  }),
  changeFailure: Type.Union([ChangeFailure, Type.Null()], {
    description: "Once recorded: whether it failed in production as the DORA keys count it (a rollback, a revert or an incident), why, and what recovered it; null when it did not, while queued, failed or voided"
  }),
  duplicateOf: Nullable2(Type.String({ format: "uuid" }), "Set when this delivery repeated one already recorded under another id"),
  failure: Type.Union([DeploymentFailure, Type.Null()], {
    description: "Why it could not be recorded, when status is failed; else null"
  }),
  voided: Type.Union([DeploymentVoided, Type.Null()], {
    description: "When status is voided: when, by which key and why; else null"
  }),
  commitsUnknown: Type.Optional(Type.String({
    description: 'Only on the receipt of a deployment an integration recorded whose commits could not be derived from pushes, and why: "no push received between 4f1c0e9a2b3d and 9e8d7c6b5a41"'
  }))
}, { $id: "DeploymentStatus" });

// packages/schema/src/page.ts
var PageOf = (item, $id) => Type.Object({
  data: Type.Array(item),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: "Pass as `cursor` for the next page; null on the last page"
  })
}, { $id });

// packages/schema/src/deployment-record.ts
var Nullable3 = (schema) => Type.Union([schema, Type.Null()]);
var DeploymentRecord = Type.Object({
  id: Type.String({ format: "uuid", description: "Assigned when the deployment was accepted" }),
  repositoryFullName: Type.String(),
  environment: Type.String({ description: "Display spelling: the first one seen" }),
  app: Type.String({ description: "Display spelling: the first one seen" }),
  version: Type.String(),
  commitHash: DeployedCommit,
  description: Nullable3(Type.String()),
  author: Nullable3(Type.String()),
  deployedAt: Type.String({ format: "date-time" }),
  monorepoPath: Nullable3(Type.String()),
  receivedAt: Type.String({ format: "date-time", description: "When the API accepted it" }),
  source: DeploymentSource,
  recordedAt: Type.String({ format: "date-time", description: "When the worker stored it" }),
  changeType: ChangeType
}, { $id: "DeploymentRecord" });
var DeploymentPage = PageOf(DeploymentStatus, "DeploymentPage");
var FlagParameter = (description) => Type.Union([Type.Literal("true"), Type.Literal("false")], { description });
var ListDeploymentsQuery = Type.Object({
  app: NameParameter("Only this application (any case)"),
  environment: NameParameter("Only this environment (any case)"),
  repository: NameParameter("Only this repository, owner/name (any case)"),
  version: Type.Optional(Type.String({ minLength: 1, maxLength: 70, description: "Only this exact version" })),
  commitHash: Type.Optional(Type.String({
    pattern: "^[0-9a-fA-F]{4,70}$",
    errorMessage: "must be 4 to 70 hexadecimal digits: the start of a commit SHA",
    description: "Only commits starting with these hexadecimal digits (at least 4)"
  })),
  since: Type.Optional(DateTimeParameter("deployedAt at or after: a date (its midnight UTC) or an RFC 3339 date-time")),
  until: Type.Optional(DateTimeParameter("deployedAt before: a date (its midnight UTC) or an RFC 3339 date-time")),
  changeType: Type.Optional(Type.Union([
    Type.Literal("initial"),
    Type.Literal("redeploy"),
    Type.Literal("rollback"),
    Type.Literal("forward"),
    Type.Literal("change")
  ], {
    description: "Only deployments of this change type (recorded ones); `change`: initial or forward, the deployments change fail rate divides by"
  })),
  failed: Type.Optional(FlagParameter("true: only deployments some signal says failed (`changeFailure` set: as many as the DORA recoveries plus open; with `changeType=change`, the change fail rate’s failed); false: only the others")),
  rework: Type.Optional(FlagParameter("true: only rework as the DORA rework rate counts it (rollbacks, deployments whose commits revert a failed one’s, deployments that fixed an incident); false: only the others")),
  production: Type.Optional(FlagParameter("true: only the production environments (GET /v1/environments says which), what /v1/metrics/dora counts without an environment; false: only the others")),
  status: Type.Optional(Type.Union([Type.Literal("recorded"), Type.Literal("queued"), Type.Literal("failed")], {
    default: "recorded",
    description: "recorded (default), queued (accepted, not yet recorded) or failed (dead-lettered)"
  })),
  ...PageParameters
}, { additionalProperties: false });
var DeploymentIdParams = IdParameters("The id in the Location of the 202");
// packages/schema/src/dora.ts
var Count = (description) => Type.Integer({ minimum: 0, description });
var Seconds = (description) => Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
  description: `${description}; null without data`
});
var Ratio = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
  description: "The share, from 0 to 1; null when there is nothing to divide by"
});
var DoraFigures = Type.Object({
  deploymentFrequency: Type.Object({
    deployments: Count("Recorded deployments"),
    perDay: Type.Number({ minimum: 0, description: "deployments ÷ days" })
  }),
  changeLeadTime: Type.Object({
    commits: Count("Commits first delivered here by a deployment other than the first"),
    medianSeconds: Seconds("Median of deployedAt minus committer time"),
    p90Seconds: Seconds("90th percentile of the same")
  }),
  changeFailRate: Type.Object({
    failed: Count("Failed deployments of type initial or forward"),
    deployments: Count("Deployments of type initial or forward"),
    ratio: Ratio
  }),
  failedDeploymentRecoveryTime: Type.Object({
    recoveries: Count("Failed deployments that were recovered"),
    medianSeconds: Seconds("Median time from the failed deployment to its recovery"),
    open: Count("Failed deployments not recovered yet")
  }),
  deploymentReworkRate: Type.Object({
    rework: Count("Rollbacks, and deployments that fixed a failure"),
    deployments: Count("Recorded deployments"),
    ratio: Ratio
  })
}, { $id: "DoraFigures" });
var DoraMetrics = Type.Object({
  environment: Type.String({
    description: 'The environment asked for; without one, the production environments covered, joined by ", "'
  }),
  environments: Type.Optional(Type.Array(Type.String(), {
    description: "Only when no environment was asked for: the production environments counted together, in pipeline order"
  })),
  since: Type.String({ format: "date-time" }),
  until: Type.String({ format: "date-time" }),
  ...DoraFigures.properties,
  series: Type.Array(Type.Object({
    start: Type.String({ format: "date-time", description: "Start of the bucket" }),
    ...DoraFigures.properties
  }), { description: "Per bucket (week or day) of the window, in order, every bucket listed" })
}, { $id: "DoraMetrics" });
var DoraQuery = Type.Object({
  environment: NameParameter("The environment (any case), e.g. production; without it, every production environment of the workspace together (GET /v1/environments says which are)"),
  app: NameParameter("Only this application (any case, in any repository)"),
  repository: NameParameter("Only the applications of this repository, owner/name (any case)"),
  since: Type.Optional(DateTimeParameter("Window start (default: 12 weeks before until)")),
  until: Type.Optional(DateTimeParameter("Window end, exclusive (default: now)")),
  bucket: Type.Optional(Type.Union([Type.Literal("week"), Type.Literal("day")], {
    default: "week",
    description: "The buckets of series: ISO weeks from Monday (default), or UTC days"
  }))
}, { additionalProperties: false });
// packages/schema/src/first-delivery.ts
var Nullable4 = (description) => Type.Union([Type.String(), Type.Null()], { description: `${description}; null when not sent` });
var FirstDelivery = Type.Object({
  sha: Type.String({ description: "The commit, lower-case hexadecimal" }),
  deploymentId: Type.String({
    format: "uuid",
    description: "The deployment that first delivered it"
  }),
  app: Type.String(),
  environment: Type.String(),
  deployedAt: Type.String({ format: "date-time", description: "When that deployment ran" }),
  committedAt: Type.String({ format: "date-time", description: "Committer time" }),
  leadTimeSeconds: Type.Number({ description: "deployedAt minus committedAt" }),
  subject: Nullable4("The first line of its message"),
  author: Nullable4("Its author’s name"),
  url: Nullable4("The commit on its code host, from the list’s webUrl")
}, { $id: "FirstDelivery" });
var FirstDeliveryPage = PageOf(FirstDelivery, "FirstDeliveryPage");
var ListCommitsQuery = Type.Object({
  environment: NameParameter("Only this environment (any case)"),
  production: Type.Optional(Type.Union([Type.Literal("true"), Type.Literal("false")], {
    description: "true: only the production environments (GET /v1/environments says which), what /v1/metrics/dora counts without an environment; false: only the others"
  })),
  app: NameParameter("Only this application (any case)"),
  repository: NameParameter("Only the applications of this repository, owner/name (any case)"),
  since: Type.Optional(DateTimeParameter("deployedAt at or after: a date (its midnight UTC) or an RFC 3339 date-time")),
  until: Type.Optional(DateTimeParameter("deployedAt before: a date (its midnight UTC) or an RFC 3339 date-time")),
  limit: PageParameters.limit,
  cursor: Type.Optional(Type.Unsafe({
    type: "string",
    format: "commit-cursor",
    maxLength: 300,
    description: "`nextCursor` of the previous page"
  }))
}, { additionalProperties: false });
// packages/schema/src/incident.ts
var Nullable5 = (schema, description) => Type.Union([schema, Type.Null()], { description });
var title = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "What went wrong, in a line",
  examples: ["Checkout returns 500s"]
});
var startedAt = Type.String({
  format: "date-time",
  description: "When it started; default: the cause's deployedAt, or the request time when there is no cause"
});
var resolvedAt = Type.String({
  format: "date-time",
  description: "When it was resolved; not before startedAt"
});
var causeDeploymentId = Type.String({
  format: "uuid",
  description: "The recorded deployment that caused it (in the same environment)"
});
var IncidentInput = Type.Object({
  environment: Type.String({
    minLength: 1,
    maxLength: 255,
    format: "name",
    description: "The environment it happened in; one that has deployments",
    examples: ["production"]
  }),
  app: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 255,
    format: "name",
    description: "An application of the workspace (one it has recorded a deployment of), in any repository; omit for the whole environment"
  })),
  title,
  startedAt: Type.Optional(startedAt),
  resolvedAt: Type.Optional(resolvedAt),
  causeDeploymentId: Type.Optional(causeDeploymentId)
}, { $id: "IncidentInput", additionalProperties: false });
var IncidentPatch = Type.Object({
  title: Type.Optional(title),
  startedAt: Type.Optional(startedAt),
  resolvedAt: Type.Optional(Type.Union([resolvedAt, Type.Null()], { description: "When resolved; null reopens it" })),
  causeDeploymentId: Type.Optional(Type.Union([causeDeploymentId, Type.Null()], { description: "The cause; null clears it" })),
  fixedByDeploymentId: Type.Optional(Type.Union([
    Type.String({
      format: "uuid",
      description: "The recorded deployment that fixed it (counted as rework)"
    }),
    Type.Null()
  ], { description: "The fix; null clears it" }))
}, { $id: "IncidentPatch", additionalProperties: false });
var Incident = Type.Object({
  id: Type.String({ format: "uuid" }),
  status: Type.Union([Type.Literal("open"), Type.Literal("resolved")], {
    description: "resolved once resolvedAt is set"
  }),
  environment: Type.String({ description: "Display spelling of the environment" }),
  app: Nullable5(Type.String(), "The application named when it was opened, or null"),
  title: Type.String(),
  startedAt: Type.String({ format: "date-time" }),
  resolvedAt: Nullable5(Type.String({ format: "date-time" }), "When resolved, or null"),
  causeDeploymentId: Nullable5(Type.String({ format: "uuid" }), "The cause, or null"),
  fixedByDeploymentId: Nullable5(Type.String({ format: "uuid" }), "The deployment that fixed it, or null"),
  source: Nullable5(Type.String(), "The integration source that reported it (alertmanager, pagerduty, opsgenie, cdevents), or null when a person opened it"),
  senderUrl: Nullable5(Type.String(), "The sender’s own page of it (PagerDuty’s incident, the alert’s generatorURL), or null"),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" })
}, { $id: "Incident" });
var IncidentPage = PageOf(Incident, "IncidentPage");
var ListIncidentsQuery = Type.Object({
  environment: NameParameter("Only this environment (any case)"),
  app: NameParameter("Only incidents naming this application (any case)"),
  status: Type.Optional(Type.Union([Type.Literal("open"), Type.Literal("resolved")], {
    description: "open (not resolved) or resolved; both when omitted"
  })),
  since: Type.Optional(DateTimeParameter("startedAt at or after: a date (its midnight UTC) or an RFC 3339 date-time")),
  until: Type.Optional(DateTimeParameter("startedAt before: a date (its midnight UTC) or an RFC 3339 date-time")),
  ...PageParameters
}, { additionalProperties: false });
var IncidentIdParams = IdParameters("The id in the Location of the 201");
// packages/schema/src/validate-deployment.ts
var IS_REQUIRED2 = invalid("is required");
var NOT_EMPTY2 = invalid("must not be empty");
var NOT_STRING = invalid("must be a string");
function schemaPattern(name) {
  const schema = DeploymentInput.properties[name];
  if (schema.pattern === undefined)
    throw new Error(`DeploymentInput.${name} has no pattern`);
  return new RegExp(schema.pattern, "u");
}
var REPOSITORY_FULL_NAME = schemaPattern("repositoryFullName");
var COMMIT_HASH = schemaPattern("commitHash");
var BAD_REPOSITORY = invalid("must look like owner/repo-name");
var BAD_COMMIT = invalid("must be 7 to 70 hexadecimal characters: the full Git commit SHA (was a template variable left unexpanded?)");
var ABSOLUTE_PATH = invalid("must be a relative path: remove the leading '/'");
var PARENT_SEGMENT = invalid("must be a relative path without '..' segments");
var EMPTY_SEGMENT = invalid("must not contain empty segments ('//')");
var SLASH = 47;
function monorepoPath(trimmed) {
  if (trimmed.charCodeAt(0) === SLASH)
    return ABSOLUTE_PATH;
  let start = 0;
  while (trimmed.startsWith("./", start))
    start += 2;
  let end = trimmed.length;
  while (end > start && trimmed.charCodeAt(end - 1) === SLASH)
    end--;
  const path = trimmed.slice(start, end);
  if (path === "" || path === ".")
    return null;
  let emptySegment = false;
  for (const segment of path.split("/")) {
    if (segment === "..")
      return PARENT_SEGMENT;
    if (segment === "")
      emptySegment = true;
  }
  return emptySegment ? EMPTY_SEGMENT : path;
}
var FORMAT_RULES = {
  repositoryFullName: (v) => REPOSITORY_FULL_NAME.test(v) ? v : BAD_REPOSITORY,
  commitHash: (v) => COMMIT_HASH.test(v) ? v.toLowerCase() : BAD_COMMIT,
  deployedAt: (v, nowMicros) => {
    const instant = FORMATS["date-time"](v);
    if (isInvalid(instant))
      return instant;
    const reported = notAhead(instant, nowMicros);
    return isInvalid(reported) ? reported : reported.iso;
  },
  monorepoPath
};
function ruleOf(name, format, maxLength) {
  const own = FORMAT_RULES[name];
  if (format !== "name")
    return own;
  return (trimmed, nowMicros) => {
    const named = checkName(trimmed, maxLength);
    if (isInvalid(named) || own === undefined)
      return named;
    return own(named, nowMicros);
  };
}
var REQUIRED = new Set(DeploymentInput.required);
var FIELDS = Object.entries(DeploymentInput.properties).map(([name, schema]) => ({
  name,
  required: REQUIRED.has(name),
  maxLength: schema.maxLength,
  rule: ruleOf(name, schema.format, schema.maxLength)
}));
var KNOWN_NAMES = FIELDS.map((f) => f.name);
var KNOWN = new Set(KNOWN_NAMES);
// packages/client/src/git-remote.ts
function repositoryFromRemote(remote) {
  const trimmed = remote.trim();
  const scpLike = /^[^@/\s]+@[^:/\s]+:(?!\/)(.+)$/.exec(trimmed);
  let path = scpLike?.[1];
  if (path === undefined) {
    try {
      path = new URL(trimmed).pathname;
    } catch {
      return;
    }
  }
  const cleaned = path.replace(/^\/+/, "").replace(/\/+$/, "").replace(/\.git$/, "");
  return /^[^\s/]+(?:\/[^\s/]+)+$/.test(cleaned) ? cleaned : undefined;
}
function webUrlFromRemote(remote) {
  const trimmed = remote.trim();
  const scpLike = /^[^@/\s]+@([^:/\s]+):(?!\/)(.+)$/.exec(trimmed);
  let host = scpLike?.[1];
  let path = scpLike?.[2];
  if (!scpLike) {
    try {
      const url = new URL(trimmed);
      if (!["https:", "http:", "ssh:", "git:"].includes(url.protocol))
        return;
      host = url.protocol === "https:" ? url.host : url.hostname;
      path = url.pathname;
    } catch {
      return;
    }
  }
  const repository = repositoryFromRemote(`https://${host}/${path?.replace(/^\/+/, "")}`);
  if (!host || repository === undefined)
    return;
  const checked = checkWebUrl(`https://${host}/${repository}`);
  return typeof checked === "string" ? checked : undefined;
}

// packages/client/src/runtime.ts
var host = globalThis;
function workingDirectory() {
  if (host.Deno)
    return host.Deno.cwd();
  return host.process?.cwd() ?? ".";
}
async function pathExists(path) {
  try {
    if (host.Deno)
      await host.Deno.stat(path);
    else
      await (await import("node:fs/promises")).stat(path);
    return true;
  } catch {
    return false;
  }
}
async function runProgram(program, args, env = {}) {
  if (host.Deno) {
    const { Deno } = host;
    try {
      const out = await new Deno.Command(program, {
        args,
        env,
        stdout: "piped",
        stderr: "piped"
      }).output();
      const text = new TextDecoder;
      return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
    } catch (error) {
      const failed = { code: -1, stdout: "", stderr: String(error) };
      return error instanceof Deno.errors.NotFound ? { ...failed, notFound: true } : failed;
    }
  }
  const { execFile } = await import("node:child_process");
  const options = { maxBuffer: 268435456, env: { ...host.process?.env, ...env } };
  return new Promise((resolve) => {
    execFile(program, args, options, (error, stdout, stderr) => {
      const code = error ? typeof error.code === "number" ? error.code : -1 : 0;
      const result = {
        code,
        stdout: String(stdout),
        stderr: String(stderr || (error?.message ?? ""))
      };
      resolve(error?.code === "ENOENT" ? { ...result, notFound: true } : result);
    });
  });
}

// packages/client/src/git-checkout.ts
async function checkoutRoot(dir) {
  for (let current = dir;; ) {
    if (await pathExists(`${current.replace(/[\\/]$/, "")}/.git`))
      return current;
    const parent = current.replace(/[\\/][^\\/]*[\\/]?$/, "") || "/";
    if (parent === current || parent === "")
      return;
    current = parent;
  }
}
async function localCheckout(run = runProgram) {
  const root = await checkoutRoot(workingDirectory());
  const trust = root === undefined ? [] : ["-c", `safe.directory=${root}`];
  const english = { LC_ALL: "C" };
  return {
    read: (args) => run("git", [...trust, ...args], english),
    write: (args) => run("git", args, english)
  };
}
var NO_COMMITS = "so no commits were sent";
function gitProblem(result) {
  if (result.notFound) {
    return `git is not installed here, ${NO_COMMITS}: run this step in an image with git, or pass --no-commits`;
  }
  const said = result.stderr.trim();
  if (/dubious ownership|unsafe repository|is owned by someone else/.test(said)) {
    return `git refused this checkout because another user owns it (git: detected dubious ownership), ${NO_COMMITS}: ` + "run this step as the checkout's owner, or mark it safe: git config --global --add safe.directory <checkout>";
  }
  if (/not a git repository/.test(said)) {
    return `this directory is not in a git checkout, ${NO_COMMITS}: run it in the pipeline's checkout, or pass --no-commits`;
  }
  const first = said.split(`
`)[0] || `exit code ${result.code}`;
  return `git could not read this checkout (${first.replace(/^fatal: /, "")}), ${NO_COMMITS}`;
}
async function checkoutState(git) {
  const inside = await git(["rev-parse", "--is-inside-work-tree"]);
  if (inside.code === 0 && inside.stdout.trim() === "true")
    return { ok: true };
  if (inside.code === 0) {
    return { ok: false, reason: gitProblem({ ...inside, stderr: "not a git repository" }) };
  }
  return { ok: false, reason: gitProblem(inside) };
}
async function checkoutContext(git) {
  const answer = async (args) => {
    const result = await git(args);
    const value = result.code === 0 ? result.stdout.trim() : "";
    return value === "" ? undefined : value;
  };
  const head = await answer(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  const origin = await answer(["remote", "get-url", "origin"]);
  const author = await answer(["config", "user.name"]);
  const repositoryFullName = origin === undefined ? undefined : repositoryFromRemote(origin);
  return Object.fromEntries(Object.entries({ commitHash: head, repositoryFullName, author }).filter(([, value]) => value !== undefined));
}
async function originWebUrl(git) {
  const origin = await git(["remote", "get-url", "origin"]);
  return origin.code === 0 ? webUrlFromRemote(origin.stdout.trim()) : undefined;
}

// packages/client/src/notify-args.ts
import { parseArgs } from "node:util";

// packages/client/src/ci-providers.ts
var COMMIT = /^[0-9a-f]{7,70}$/i;
var value = (env, name) => {
  const found = env[name]?.trim();
  return found ? found : undefined;
};
var commit = (sha) => sha && COMMIT.test(sha) ? sha : undefined;
var remote = (url) => url === undefined ? undefined : repositoryFromRemote(url);
var web = (url) => url === undefined ? undefined : webUrlFromRemote(url);
function rerunIds(env, required, optional = []) {
  const ids = {};
  for (const group of required) {
    const name = group.find((candidate) => value(env, candidate) !== undefined);
    if (name === undefined)
      return;
    ids[name] = value(env, name);
  }
  for (const name of optional) {
    const found = value(env, name);
    if (found !== undefined)
      ids[name] = found;
  }
  return ids;
}
function azureRepository(env) {
  const provider = value(env, "BUILD_REPOSITORY_PROVIDER");
  if (provider && /^(GitHub|GitHubEnterprise|Bitbucket)$/i.test(provider)) {
    return value(env, "BUILD_REPOSITORY_NAME");
  }
  return remote(value(env, "BUILD_REPOSITORY_URI")?.replace("/_git/", "/"));
}
var CI_PROVIDERS = [
  {
    name: "github-actions",
    detects: (env) => value(env, "GITHUB_ACTIONS") === "true",
    read: (env) => ({
      commitHash: commit(value(env, "GITHUB_SHA")),
      repositoryFullName: value(env, "GITHUB_REPOSITORY"),
      author: value(env, "GITHUB_ACTOR"),
      webUrl: web(value(env, "GITHUB_REPOSITORY") && `${value(env, "GITHUB_SERVER_URL") ?? "https://github.com"}/${value(env, "GITHUB_REPOSITORY")}`),
      rerun: rerunIds(env, [["GITHUB_RUN_ID"], ["GITHUB_JOB"]])
    })
  },
  {
    name: "gitlab-ci",
    detects: (env) => value(env, "GITLAB_CI") === "true",
    read: (env) => ({
      commitHash: commit(value(env, "CI_COMMIT_SHA")),
      repositoryFullName: value(env, "CI_PROJECT_PATH"),
      author: value(env, "GITLAB_USER_LOGIN"),
      webUrl: web(value(env, "CI_PROJECT_URL")),
      rerun: rerunIds(env, [["CI_PIPELINE_ID"], ["CI_JOB_NAME"]])
    })
  },
  {
    name: "jenkins",
    detects: (env) => value(env, "JENKINS_URL") !== undefined && value(env, "BUILD_TAG") !== undefined,
    read: (env) => ({
      commitHash: commit(value(env, "GIT_COMMIT")),
      repositoryFullName: remote(value(env, "GIT_URL")),
      author: undefined,
      webUrl: web(value(env, "GIT_URL")),
      rerun: rerunIds(env, [["JENKINS_URL"], ["BUILD_TAG"]], ["STAGE_NAME"])
    })
  },
  {
    name: "azure-pipelines",
    detects: (env) => value(env, "TF_BUILD")?.toLowerCase() === "true",
    read: (env) => ({
      commitHash: commit(value(env, "BUILD_SOURCEVERSION")),
      repositoryFullName: azureRepository(env),
      author: value(env, "BUILD_REQUESTEDFOR"),
      webUrl: web(value(env, "BUILD_REPOSITORY_URI")),
      rerun: rerunIds(env, [["BUILD_BUILDID"], ["SYSTEM_JOBNAME"]], ["SYSTEM_STAGENAME", "SYSTEM_PHASENAME"])
    })
  },
  {
    name: "bitbucket-pipelines",
    detects: (env) => value(env, "BITBUCKET_BUILD_NUMBER") !== undefined,
    read: (env) => ({
      commitHash: commit(value(env, "BITBUCKET_COMMIT")),
      repositoryFullName: value(env, "BITBUCKET_REPO_FULL_NAME"),
      author: undefined,
      webUrl: web(value(env, "BITBUCKET_GIT_HTTP_ORIGIN")),
      rerun: rerunIds(env, [["BITBUCKET_BUILD_NUMBER"], ["BITBUCKET_STEP_UUID"]])
    })
  },
  {
    name: "circleci",
    detects: (env) => value(env, "CIRCLECI") === "true",
    read: (env) => {
      const owner = value(env, "CIRCLE_PROJECT_USERNAME");
      const name = value(env, "CIRCLE_PROJECT_REPONAME");
      return {
        commitHash: commit(value(env, "CIRCLE_SHA1")),
        repositoryFullName: owner && name ? `${owner}/${name}` : undefined,
        author: value(env, "CIRCLE_USERNAME"),
        webUrl: web(value(env, "CIRCLE_REPOSITORY_URL")),
        rerun: rerunIds(env, [["CIRCLE_WORKFLOW_WORKSPACE_ID"], ["CIRCLE_JOB"]])
      };
    }
  },
  {
    name: "buildkite",
    detects: (env) => value(env, "BUILDKITE") === "true",
    read: (env) => ({
      commitHash: commit(value(env, "BUILDKITE_COMMIT")),
      repositoryFullName: remote(value(env, "BUILDKITE_REPO")),
      author: value(env, "BUILDKITE_BUILD_CREATOR"),
      webUrl: web(value(env, "BUILDKITE_REPO")),
      rerun: rerunIds(env, [["BUILDKITE_BUILD_ID"], ["BUILDKITE_STEP_ID", "BUILDKITE_STEP_KEY", "BUILDKITE_LABEL"]], ["BUILDKITE_PARALLEL_JOB"])
    })
  }
];

// packages/client/src/ci-env.ts
function detectCi(env) {
  const provider = CI_PROVIDERS.find((candidate) => candidate.detects(env));
  if (!provider)
    return {};
  const found = { provider: provider.name, ...provider.read(env) };
  return Object.fromEntries(Object.entries(found).filter(([, field]) => field !== undefined));
}

// packages/client/src/rerun-key.ts
import { createHash } from "node:crypto";
function rerunKey(ci, input) {
  if (ci.provider === undefined || ci.rerun === undefined)
    return;
  const named = JSON.stringify([
    ci.provider,
    Object.entries(ci.rerun),
    input.repositoryFullName,
    input.app,
    input.environment
  ]);
  const digest = createHash("sha256").update(named).digest("hex");
  const from = Object.entries(ci.rerun).map(([name, id]) => `${name}=${id}`).join(" ");
  return { key: `${ci.provider}-${digest}`, from };
}

// packages/client/src/notify-args.ts
class UsageError extends Error {
  name = "UsageError";
}
var NOTIFY_OPTIONS = {
  url: { type: "string" },
  "api-key": { type: "string" },
  app: { type: "string" },
  environment: { type: "string" },
  version: { type: "string" },
  commit: { type: "string" },
  repository: { type: "string" },
  author: { type: "string" },
  description: { type: "string" },
  "deployed-at": { type: "string" },
  "monorepo-path": { type: "string" },
  "idempotency-key": { type: "string" },
  wait: { type: "boolean" },
  timeout: { type: "string" },
  "retry-for": { type: "string" },
  "no-commits": { type: "boolean" },
  "require-commits": { type: "boolean" },
  fixes: { type: "string" }
};
var FLAG_OF_FIELD = {
  repositoryFullName: "--repository",
  environment: "--environment",
  app: "--app",
  version: "--version",
  commitHash: "--commit",
  description: "--description",
  author: "--author",
  deployedAt: "--deployed-at",
  monorepoPath: "--monorepo-path",
  "Idempotency-Key": "--idempotency-key"
};
var given = (value) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};
function parseTimeout(value) {
  if (value === undefined)
    return DEFAULT_WAIT_TIMEOUT_MS;
  const seconds = Number(value);
  if (!(Number.isFinite(seconds) && seconds > 0)) {
    throw new UsageError(`--timeout must be a positive number of seconds, got ${JSON.stringify(value)}`);
  }
  return seconds * 1000;
}
function parseRetryFor(flag, env) {
  const [name, value] = flag === undefined ? ["SHIPLOG_RETRY_FOR", env] : ["--retry-for", flag];
  if (value === undefined)
    return;
  const seconds = Number(value);
  if (!(Number.isFinite(seconds) && seconds >= 0)) {
    throw new UsageError(`${name} must be a number of seconds ≥ 0 (0: no retries), got ${JSON.stringify(value)}`);
  }
  return seconds * 1000;
}
function parseUrl(value) {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:")
      return url.href;
  } catch {}
  throw new UsageError(`--url must be an http(s) URL such as https://shiplog.example.com, got ${JSON.stringify(value)}`);
}
function readFlags(args) {
  try {
    return parseArgs({ args, options: NOTIFY_OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error.message);
  }
}
async function planNotify(args, env, git) {
  const flags = readFlags(args);
  const ci = detectCi(env);
  const lacking = !(given(flags.commit) ?? ci.commitHash) || !(given(flags.repository) ?? ci.repositoryFullName) || ci.provider === undefined && !given(flags.author);
  return planOf(flags, env, ci, lacking ? await checkoutContext(git) : {});
}
function planOf(values, env, ci, local) {
  const url = given(values.url) ?? given(env.SHIPLOG_URL);
  const apiKey = given(values["api-key"]) ?? given(env.SHIPLOG_API_KEY);
  const app = given(values.app);
  const environment = given(values.environment);
  const version = given(values.version);
  const commitHash = given(values.commit) ?? ci.commitHash ?? local.commitHash;
  const repositoryFullName = given(values.repository) ?? ci.repositoryFullName ?? local.repositoryFullName;
  const author = given(values.author) ?? ci.author ?? (ci.provider ? undefined : local.author);
  const missing = [];
  if (!url)
    missing.push("--url (or SHIPLOG_URL)");
  if (!apiKey)
    missing.push("--api-key (or SHIPLOG_API_KEY)");
  if (!app)
    missing.push("--app");
  if (!environment)
    missing.push("--environment");
  if (!version)
    missing.push("--version");
  if (!commitHash)
    missing.push("--commit (not detected from the CI or a git checkout)");
  if (!repositoryFullName) {
    missing.push("--repository (not detected from the CI or the checkout's origin remote)");
  }
  if (!url || !apiKey || !app || !environment || !version || !commitHash || !repositoryFullName) {
    throw new UsageError(`missing ${missing.join(", ")}`);
  }
  const input = { repositoryFullName, environment, app, version, commitHash };
  const optional = {
    author,
    description: given(values.description),
    deployedAt: given(values["deployed-at"]),
    monorepoPath: given(values["monorepo-path"])
  };
  for (const [field, value] of Object.entries(optional)) {
    if (value !== undefined)
      input[field] = value;
  }
  if (values["require-commits"] && values["no-commits"]) {
    throw new UsageError("--require-commits asks for the commits that --no-commits leaves out: pass one");
  }
  const explicitKey = given(values["idempotency-key"]);
  const rerun = explicitKey === undefined ? rerunKey(ci, input) : undefined;
  const idempotencyKey = explicitKey ?? rerun?.key;
  const fixes = given(values.fixes);
  const retryForMs = parseRetryFor(given(values["retry-for"]), given(env.SHIPLOG_RETRY_FOR));
  return {
    url: parseUrl(url),
    apiKey,
    input,
    ...idempotencyKey === undefined ? {} : { idempotencyKey },
    ...rerun === undefined ? {} : { rerun },
    wait: values.wait ?? false,
    timeoutMs: parseTimeout(values.timeout),
    ...retryForMs === undefined ? {} : { retryForMs },
    commits: !values["no-commits"],
    requireCommits: values["require-commits"] ?? false,
    ...fixes === undefined ? {} : { fixes },
    ...ci.webUrl === undefined ? {} : { webUrl: ci.webUrl }
  };
}

// packages/schema/src/revert-forms.ts
var REVERTS_COMMIT = /This reverts commit ([0-9a-fA-F]{7,64})\b/g;
var REVERT_SUBJECT = /^Revert "(.+)"(?: \(#\d+\))?$/;
var REVERTS_PULL_REQUEST = /^Reverts [^\s#]+\/[^\s#]+#(\d+)\s*$/gm;
function revertClaim(subject, message) {
  const shas = [...message.matchAll(REVERTS_COMMIT)].map((match) => (match[1] ?? "").toLowerCase());
  if (shas.length > 0)
    return { form: "shas", shas: [...new Set(shas)] };
  const title = REVERT_SUBJECT.exec(subject.trim())?.[1];
  if (title === undefined)
    return;
  const pullRequests = [...message.matchAll(REVERTS_PULL_REQUEST)].map((match) => Number(match[1]));
  return { form: "title", title, pullRequests: [...new Set(pullRequests)] };
}
var isFullSha = (sha) => sha.length === 40 || sha.length === 64;
function mergedPullRequest(subject) {
  const number = /^Merge pull request #(\d+) from /.exec(subject)?.[1];
  return number === undefined ? undefined : Number(number);
}
function squashedPullRequest(subject) {
  const number = / ?\(#(\d+)\)$/.exec(subject)?.[1];
  return number === undefined ? undefined : Number(number);
}
var withoutPullRequest = (subject) => subject.replace(/ \(#\d+\)$/, "");

// packages/client/src/revert-targets.ts
var REVERT_SEARCH_COMMITS = 1e4;
var MAX_REVERTS = 100;
var FIELD = "\x1F";
var RECORD = "\x1E";
async function resolveReverts(read, tip, claiming) {
  const reverts = new Map;
  const unresolved = [];
  let history;
  for (const { sha, subject, claim } of claiming) {
    const label = `${sha.slice(0, 12)} (${subject.slice(0, 60)})`;
    if (claim.form === "shas") {
      const found = [];
      for (const named of claim.shas) {
        const full = isFullSha(named) ? named : await fullSha(read, named);
        if (full === undefined)
          unresolved.push(`${label}: no one commit ${named} here`);
        else
          found.push(full);
      }
      if (found.length > 0)
        reverts.set(sha, found.slice(0, MAX_REVERTS));
      continue;
    }
    history ??= await readHistory(read, tip);
    const target = await targetOf(read, history, sha, claim);
    if (Array.isArray(target))
      reverts.set(sha, target.slice(0, MAX_REVERTS));
    else
      unresolved.push(`${label}: ${target}`);
  }
  return { reverts, unresolved };
}
async function fullSha(read, abbreviated) {
  const answer = await read(["rev-parse", "--verify", "--quiet", `${abbreviated}^{commit}`]);
  return answer.code === 0 ? answer.stdout.trim().toLowerCase() : undefined;
}
async function readHistory(read, tip) {
  const log = await read([
    "log",
    `--max-count=${REVERT_SEARCH_COMMITS}`,
    `--format=%H${FIELD}%P${FIELD}%s${FIELD}%b${RECORD}`,
    tip
  ]);
  const history = new Map;
  if (log.code !== 0)
    return history;
  for (const record of log.stdout.split(RECORD)) {
    const [sha = "", parents = "", subject = "", body = ""] = record.replace(/^\n/, "").split(FIELD);
    if (!sha)
      continue;
    const title = mergedPullRequest(subject) === undefined ? undefined : body.split(`
`)[0]?.trim();
    history.set(sha, {
      parents: parents.split(" ").filter(Boolean),
      subject,
      ...title === undefined ? {} : { title }
    });
  }
  return history;
}
function ancestorsOf(history, sha) {
  const seen = new Set;
  const queue = [...history.get(sha)?.parents ?? []];
  while (queue.length > 0) {
    const next = queue.pop();
    if (seen.has(next) || !history.has(next))
      continue;
    seen.add(next);
    queue.push(...history.get(next)?.parents ?? []);
  }
  return seen;
}
async function mergedCommits(read, merge) {
  const listed = await read(["rev-list", `${merge}^1..${merge}^2`]);
  return listed.code === 0 ? listed.stdout.split(`
`).filter(Boolean) : [];
}
async function single(read, history, candidates) {
  const targets = new Map;
  for (const sha of candidates) {
    const known = history.get(sha);
    const merge = known !== undefined && known.parents.length > 1 && known.title !== undefined;
    targets.set(sha, merge ? [sha, ...await mergedCommits(read, sha)] : [sha]);
  }
  const inner = new Set([...targets.values()].flatMap((commits) => commits.slice(1)));
  const kept = [...targets].filter(([sha]) => !inner.has(sha));
  return kept.length === 1 ? kept[0]?.[1] ?? [] : kept.length;
}
async function targetOf(read, history, sha, claim) {
  const earlier = [...ancestorsOf(history, sha)];
  const subjectOf = (each) => history.get(each)?.subject ?? "";
  const byPullRequest = earlier.filter((each) => {
    const subject = subjectOf(each);
    const number = mergedPullRequest(subject) ?? squashedPullRequest(subject);
    return number !== undefined && claim.pullRequests.includes(number);
  });
  const viaPullRequest = byPullRequest.length > 0 ? await single(read, history, byPullRequest) : 0;
  if (Array.isArray(viaPullRequest))
    return viaPullRequest;
  const byTitle = earlier.filter((each) => {
    const subject = subjectOf(each);
    return subject === claim.title || withoutPullRequest(subject) === claim.title || history.get(each)?.title === claim.title;
  });
  const viaTitle = byTitle.length > 0 ? await single(read, history, byTitle) : 0;
  if (Array.isArray(viaTitle))
    return viaTitle;
  const count = Math.max(viaPullRequest, viaTitle);
  return count === 0 ? `nothing it reverts in the newest ${REVERT_SEARCH_COMMITS.toLocaleString("en")} commits` : `${count} commits or pull requests it may revert`;
}

// packages/client/src/git-commits.ts
var FIELD2 = "\x1F";
var RECORD2 = "\x1E";
var SHALLOW_HINT = "this checkout is shallow and its history could not be fetched: check out the full history " + "(GitHub actions/checkout: fetch-depth: 0; GitLab: GIT_DEPTH: 0)";
function parseRecord(record) {
  const [sha = "", committedAt = "", authoredAt = "", subject = "", author = "", message = ""] = record.split(FIELD2);
  if (!sha.trim())
    return;
  const details = { subject: commitTextLine(subject), author: commitTextLine(author) };
  const commit = {
    sha: sha.trim(),
    committedAt,
    authoredAt,
    reverts: [],
    ...Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined))
  };
  return { commit, claim: revertClaim(subject, message) };
}
async function collectCommits(git, range) {
  const state = await checkoutState(git.read);
  if (!state.ok)
    return state;
  const missing = await missingFromHistory(git, range);
  if (missing !== undefined)
    return { ok: false, reason: missing };
  const limit = range.previous === undefined ? FIRST_DEPLOYMENT_HISTORY : MAX_DEPLOYMENT_COMMITS;
  const log = await git.read([
    "log",
    `--max-count=${limit + 1}`,
    `--format=%H${FIELD2}%cI${FIELD2}%aI${FIELD2}%s${FIELD2}%an${FIELD2}%B${RECORD2}`,
    range.previous === undefined ? range.commit : `${range.previous}..${range.commit}`,
    ...range.path ? ["--", range.path] : []
  ]);
  if (log.code !== 0)
    return { ok: false, reason: gitProblem(log) };
  const parsed = log.stdout.split(RECORD2).map((record) => parseRecord(record.replace(/^\n/, ""))).filter((each) => each !== undefined).slice(0, limit);
  const claiming = parsed.flatMap(({ commit, claim }) => claim === undefined ? [] : [{ sha: commit.sha, subject: commit.subject ?? "", claim }]);
  const resolved = await resolveReverts(git.read, range.commit, claiming);
  return {
    ok: true,
    commits: parsed.map(({ commit }) => ({
      ...commit,
      reverts: resolved.reverts.get(commit.sha) ?? []
    })),
    truncated: log.stdout.split(RECORD2).filter((record) => record.trim()).length > limit,
    unresolvedReverts: resolved.unresolved
  };
}
async function missingFromHistory(git, range) {
  const has = async (sha) => (await git.read(["cat-file", "-e", `${sha}^{commit}`])).code === 0;
  const shallow = async () => (await git.read(["rev-parse", "--is-shallow-repository"])).stdout.trim() === "true";
  if (range.previous === undefined) {
    if (await shallow())
      await git.write(["fetch", "--quiet", "--unshallow"]);
    return await has(range.commit) ? undefined : `commit ${range.commit.slice(0, 12)} is not in this checkout`;
  }
  if (await has(range.previous) && await has(range.commit))
    return;
  if (await shallow())
    await git.write(["fetch", "--quiet", "--unshallow"]);
  if (await shallow())
    return SHALLOW_HINT;
  if (!await has(range.previous)) {
    return `the previous deployment's commit ${range.previous.slice(0, 12)} is not in this checkout's history (rewritten, or another repository), so no commits were sent`;
  }
  if (!await has(range.commit))
    return `commit ${range.commit.slice(0, 12)} is not in this checkout`;
  return;
}

// packages/client/src/read-scope.ts
var lacksScope = (error) => error instanceof ShiplogError && error.status === 403;
var KEY_WITH_READ = "use a key with the read scope as well (bun run keys create --scope deployments:write --scope read)";

// packages/client/src/notify-commits.ts
async function sendCommits(plan, created, client, output, git) {
  const { app, environment, repositoryFullName, commitHash, monorepoPath } = plan.input;
  const missing = (reason) => {
    warn(output, reason);
    return "missing";
  };
  try {
    const deployedAt = plan.input.deployedAt ?? (await client.getDeployment(created.id)).deployedAt;
    const [previous] = (await client.listDeployments({
      app,
      environment,
      repository: repositoryFullName,
      until: deployedAt,
      limit: 1
    })).data;
    const path = monorepoPath ? { path: monorepoPath } : {};
    if (!previous) {
      const state = await checkoutState(git.read);
      if (!state.ok)
        return missing(state.reason);
    }
    if (previous && previous.commitHash === null) {
      return missing(`the deployment before this one (${previous.version}, from ${previous.source}) has no known commit: its sender named none, so where this one's commits start is unknown and none were sent`);
    }
    const collected = await collectCommits(git, {
      ...previous?.commitHash ? { previous: previous.commitHash } : {},
      commit: commitHash,
      ...path
    });
    if (!collected.ok && !previous) {
      output.out(`The first deployment of this app here: ${collected.reason}, so no history was sent.`);
      return "first";
    }
    if (!collected.ok)
      return missing(collected.reason);
    const webUrl = plan.webUrl ?? await originWebUrl(git.read);
    const kept = await putList(client, created.id, {
      commits: collected.commits,
      truncated: collected.truncated,
      ...webUrl === undefined ? {} : { webUrl }
    });
    if (kept !== undefined) {
      output.out(`No new commits to send: the ${kept} stored for this deployment are kept.`);
      return "sent";
    }
    if (collected.unresolvedReverts.length > 0)
      warn(output, unresolvedLine(collected.unresolvedReverts));
    const count = collected.commits.length;
    if (!previous) {
      const capped = collected.truncated ? ` (the newest ${FIRST_HISTORY}: there are more)` : "";
      output.out(`No earlier deployment of this app here: sent ${count === 1 ? "the one commit" : `the ${count} commits`} of its history${capped}, in case one arrives later.`);
      return "first";
    }
    const capped = collected.truncated ? " (the newest 5,000: there were more)" : "";
    output.out(`Sent ${count} ${count === 1 ? "commit" : "commits"} since ${previous.version}${capped}.`);
    return "sent";
  } catch (error) {
    if (lacksScope(error)) {
      return missing(`the commits were not sent: finding the deployment before this one needs the read scope, which this key has not got; ${KEY_WITH_READ}, or pass --no-commits`);
    }
    return missing(`the commits were not sent: ${error instanceof Error ? error.message : String(error)}`);
  }
}
var FIRST_HISTORY = FIRST_DEPLOYMENT_HISTORY.toLocaleString("en");
async function putList(client, id, input) {
  try {
    await client.putDeploymentCommits(id, input);
    return;
  } catch (error) {
    if (input.commits.length > 0 || !(error instanceof ShiplogError) || error.status !== 409) {
      throw error;
    }
    const stored = await client.getDeploymentCommits(id).catch(() => {
      return;
    });
    if (stored === undefined || stored.commits.length === 0)
      throw error;
    return stored.commits.length;
  }
}
function unresolvedLine(notes) {
  const shown = notes.slice(0, 3).join("; ");
  const more = notes.length > 3 ? `; and ${notes.length - 3} more` : "";
  const reverts = notes.length === 1 ? "1 revert is" : `${notes.length} reverts are`;
  return `${reverts} not counted, since what each reverts is not one commit of this history: ${shown}${more}`;
}

// packages/client/src/notify-rerun.ts
var isKeyReusedElsewhere = (error) => error instanceof ShiplogError && error.status === 422 && error.fieldErrors.length > 0 && error.fieldErrors.every((fieldError) => fieldError.field === "Idempotency-Key");
async function acceptDeployment(plan, client) {
  const { idempotencyKey } = plan;
  try {
    const options = idempotencyKey === undefined ? {} : { idempotencyKey };
    return { kind: "accepted", created: await client.createDeployment(plan.input, options) };
  } catch (error) {
    if (!plan.rerun || !isKeyReusedElsewhere(error))
      throw error;
  }
  const { app, environment, repositoryFullName, version, commitHash } = plan.input;
  for (const status of ["recorded", "queued"]) {
    const query = { app, environment, repository: repositoryFullName, version, commitHash, status };
    const [earlier] = (await client.listDeployments({ ...query, limit: 1 })).data;
    if (earlier) {
      const { id } = earlier;
      const created = { id, location: client.receiptUrl(id), idempotencyKey: plan.rerun.key };
      return { kind: "earlier", created };
    }
  }
  return { kind: "unseen" };
}

// packages/client/src/notify.ts
var COMMITS_MISSING_EXIT = 3;
function exitCodeFor(error) {
  if (error instanceof UsageError)
    return 2;
  if (error instanceof ShiplogError) {
    const { status } = error;
    return status >= 400 && status < 500 && status !== 408 && status !== 429 ? 2 : 1;
  }
  return 1;
}
function gaveUpLine(error, command) {
  const outage = error instanceof ShiplogNetworkError || error instanceof ShiplogError && isRetryableStatus(error.status);
  if (!outage || error.attempts < 2)
    return [];
  const hint = command === "notify" ? "; --retry-for (or SHIPLOG_RETRY_FOR) sets how long" : "";
  return [
    `  gave up after ${error.attempts} attempts over ${describeDuration(error.elapsedMs)}${hint}`
  ];
}
function describeError(error, flagOf = FLAG_OF_FIELD, command = "notify") {
  if (error instanceof ShiplogError) {
    const label = (field) => {
      const flag = flagOf[field];
      return flag ? `${field} (${flag})` : field;
    };
    const [first = "", ...rest] = formatProblemLines(error.problem, label);
    return [`error: ${first}`, ...rest, ...gaveUpLine(error, command)];
  }
  if (error instanceof UsageError) {
    return [`error: ${error.message}`, `Run \`shiplog ${command} --help\` for the flags.`];
  }
  const message = error instanceof Error ? error.message : String(error);
  return [`error: ${message}`, ...gaveUpLine(error, command)];
}
async function runNotify(plan, client, output, git) {
  const { app, version, environment } = plan.input;
  try {
    const acceptance = await acceptDeployment(plan, client);
    if (acceptance.kind === "unseen") {
      output.out(`This job (${plan.rerun?.from}) already reported ${app} to ${environment} with other ` + "fields, so this re-run records nothing new.");
      return 0;
    }
    const { created } = acceptance;
    const earlier = acceptance.kind === "earlier" ? ` (reported by an earlier run of this job, ${plan.rerun?.from}: nothing new recorded)` : "";
    output.out(`Deployment ${created.id} accepted: ${app} ${version} to ${environment}${earlier}`);
    output.out(created.location);
    output.out(`Its page: ${client.pageUrl(created.id)}`);
    output.accepted?.(created);
    const followReceipt = (option) => client.waitUntilRecorded(created.id, { timeoutMs: plan.timeoutMs }).catch((error) => {
      if (!lacksScope(error))
        throw error;
      throw new UsageError(`deployment ${created.id} is accepted, but ${option} needs the read scope to follow its receipt, which this key has not got; ${KEY_WITH_READ}`);
    });
    let commits;
    if (plan.commits) {
      commits = await sendCommits(plan, created, client, output, git ?? await localCheckout());
    }
    let recorded;
    if (plan.fixes !== undefined) {
      recorded = await followReceipt("--fixes");
      const incident = await client.changeIncident(plan.fixes, {
        resolvedAt: recorded.deployedAt,
        fixedByDeploymentId: recorded.duplicateOf ?? recorded.id
      });
      output.out(`Incident ${incident.id} resolved at ${incident.resolvedAt}: ${incident.title}`);
    }
    if (plan.wait) {
      output.out(`Waiting up to ${plan.timeoutMs / 1000} s for it to be recorded…`);
      recorded ??= await followReceipt("--wait");
      const repeat = recorded.duplicateOf ? ` (a repeat of deployment ${recorded.duplicateOf})` : "";
      output.out(`Recorded at ${recorded.recordedAt}${repeat}`);
    }
    if (plan.requireCommits && commits === "missing") {
      output.err(`error: deployment ${created.id} is recorded without its commits (--require-commits): fix the warning above`);
      return COMMITS_MISSING_EXIT;
    }
    return 0;
  } catch (error) {
    for (const line of describeError(error))
      output.err(line);
    return exitCodeFor(error);
  }
}

// actions/notify/src/inputs.ts
var inputVariable = (name) => `INPUT_${name.replaceAll(" ", "_").toUpperCase()}`;
var FLAGS = [
  "url",
  "api-key",
  "app",
  "environment",
  "version",
  "monorepo-path",
  "description",
  "idempotency-key",
  "retry-for"
];
var SWITCHES = ["wait", "require-commits"];
var REQUIRED2 = ["url", "api-key", "app", "environment", "version"];
var FALLBACK = {
  url: "SHIPLOG_URL",
  "api-key": "SHIPLOG_API_KEY"
};
function readSwitch(name, raw) {
  if (/^(true|True|TRUE)$/.test(raw))
    return true;
  if (/^(false|False|FALSE|)$/.test(raw))
    return false;
  throw new UsageError(`input ${name} must be true or false, got ${JSON.stringify(raw)}`);
}
function notifyArgs(env) {
  const value = (name) => env[inputVariable(name)]?.trim() ?? "";
  const missing = REQUIRED2.filter((name) => value(name) === "" && !env[FALLBACK[name] ?? ""]?.trim());
  if (missing.length > 0) {
    const [noun, pronoun] = missing.length === 1 ? ["input", "it"] : ["inputs", "them"];
    throw new UsageError(`missing ${noun} ${missing.join(", ")}: set ${pronoun} under \`with:\``);
  }
  const args = FLAGS.filter((name) => value(name) !== "").map((name) => `--${name}=${value(name)}`);
  for (const name of SWITCHES)
    if (readSwitch(name, value(name)))
      args.push(`--${name}`);
  return args;
}

// packages/client/src/ci-output.ts
var escapeData = (data) => data.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll(`
`, "%0A");
var workflowCommand = (name, data) => `::${name}::${escapeData(data)}`;

// actions/notify/src/workflow-commands.ts
function outputLine(name, value) {
  if (/[\r\n]/.test(value))
    throw new Error(`output ${name} must be one line, got ${value}`);
  return `${name}=${value}
`;
}

// actions/notify/src/main.ts
async function main(env) {
  const git = await localCheckout();
  let plan;
  try {
    plan = await planNotify(notifyArgs(env), env, git.read);
  } catch (error) {
    if (!(error instanceof UsageError))
      throw error;
    console.log(workflowCommand("error", error.message));
    return 2;
  }
  const errors = [];
  const output = {
    out: (line) => console.log(line),
    err: (line) => errors.push(line),
    warn: (message) => console.log(workflowCommand("warning", message)),
    note: (message) => console.log(workflowCommand("notice", message)),
    accepted: (created) => {
      const file = env.GITHUB_OUTPUT;
      if (!file) {
        console.log(workflowCommand("warning", "GITHUB_OUTPUT is not set: no outputs written"));
        return;
      }
      appendFileSync(file, outputLine("deployment-id", created.id) + outputLine("receipt-url", created.location));
    }
  };
  const code = await runNotify(plan, commandClient(plan, output), output, git);
  if (errors.length > 0)
    console.log(workflowCommand("error", errors.join(`
`)));
  return code;
}
process.exitCode = await main(process.env);
