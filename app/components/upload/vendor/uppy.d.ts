// Types of the pre-bundled uppy.js: the same classes as the packages it was built from.
import type { Body, Meta, Uppy } from "@uppy/core";
import type { default as AwsS3Plugin, AwsS3Options } from "@uppy/aws-s3";

export { default as Uppy } from "@uppy/core";
export { default as Dashboard } from "@uppy/dashboard";
export { default as Compressor } from "@uppy/compressor";
export { default as Url } from "@uppy/url";

/** How many parts of one file may be in flight, given the last part's speed (undefined before one finished). */
export type PartLimit = number | ((stats: { bytesPerSecond: number | undefined }) => number);

/** @uppy/aws-s3 with patches/uppy-aws-s3-parallel-parts.patch: the extra `partLimit` option (default 1). */
export declare class AwsS3<M extends Meta, B extends Body> extends AwsS3Plugin<M, B> {
  constructor(uppy: Uppy<M, B>, opts: AwsS3Options<M, B> & { partLimit?: PartLimit });
}
