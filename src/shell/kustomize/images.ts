/**
 * `images:` (builtin ImageTagTransformer, api/image/image.go): every `image` of containers,
 * initContainers and ephemeralContainers whose name (without tag or digest) is the entry's
 * `name` gets `newName`, `newTag` (dropping a digest) and/or `digest` (dropping a tag).
 */
import type { JsonValue } from '../kubectl/merge.js';
import type { Image, Res } from './types.js';
import { isObj } from './types.js';

/** image.Split: name, tag, digest. */
export function splitImage(image: string): { name: string; tag: string; digest: string } {
  let rest = image;
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag = '';
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  return { name: rest, tag, digest };
}

function update(value: string, img: Image): string {
  let { name, tag, digest } = splitImage(value);
  if (img.newName) name = img.newName;
  if (img.newTag && img.digest) {
    tag = img.newTag;
    digest = img.digest;
  } else if (img.newTag) {
    tag = img.newTag;
    digest = '';
  } else if (img.digest) {
    digest = img.digest;
    tag = '';
  }
  if (tag) name += `:${tag}`;
  if (digest) name += `@${digest}`;
  return name;
}

function walk(v: JsonValue, images: Image[]): void {
  if (Array.isArray(v)) {
    for (const x of v) walk(x, images);
    return;
  }
  if (!isObj(v)) return;
  for (const [k, child] of Object.entries(v)) {
    if ((k === 'containers' || k === 'initContainers' || k === 'ephemeralContainers') && Array.isArray(child)) {
      for (const c of child) {
        if (!isObj(c) || typeof c['image'] !== 'string') continue;
        const img = images.find((i) => i.name !== undefined && splitImage(c['image'] as string).name === i.name);
        if (img) c['image'] = update(c['image'], img);
      }
    }
    walk(child, images);
  }
}

export function setImages(resources: Res[], images: Image[] | undefined): void {
  if (!images || images.length === 0) return;
  for (const r of resources) walk(r.obj, images);
}
