// Types of the pre-bundled uppy.js: the same classes as the packages it was built from.
export { default as Uppy } from "@uppy/core";
export { default as Dashboard } from "@uppy/dashboard";
export { default as AwsS3 } from "@uppy/aws-s3";
export { default as Compressor } from "@uppy/compressor";
