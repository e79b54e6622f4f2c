// Entry of the pre-bundled Uppy (see build-uppy.mjs).
export { default as Uppy } from "@uppy/core";
export { default as Dashboard } from "@uppy/dashboard";
export { default as AwsS3 } from "@uppy/aws-s3";
export { default as Compressor } from "@uppy/compressor";
export { default as Url } from "@uppy/url";
