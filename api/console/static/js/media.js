// Product images in the console: the product page's images panel (upload
// by picker or drag and drop with progress, reorder, alt text, variants,
// delete) and the small thumbnails of the product list and order lines
// (drawn from the URLs the lists carry; asked for only when missing).
// The API makes renditions in the background: the panel polls while an
// image is processing.

import { h, replace, uid } from './dom.js';
import { api, ApiError } from './api.js';
import { allowed } from './perm.js';
import { badge, button, confirm, errorNotice, notice } from './ui.js';

const BASE = '/api/v1/admin';
const POLL_MS = 1500;

/** thumbImage is a product's small picture in its slot, from its thumbnail URL; the slot stays empty without one. */
export function thumbImage(url) {
  return h('span', { class: 'thumb-slot', 'aria-hidden': 'true' }, url ? picture(url) : null);
}

function picture(url) {
  return h('img', { class: 'thumb', src: url, alt: '', loading: 'lazy', width: 40, height: 40 });
}

/**
 * thumbnails returns a loader of product thumbnails: slot(productId) is an
 * element to place now, drawn at once when known (product id → thumbnail
 * URL or null, as the API's lists carry them); load() fills the slots of
 * the other products with one API call, and makes none when every product
 * was known.
 */
export function thumbnails(known = new Map()) {
  const slots = new Map();
  return {
    slot(productId) {
      if (productId && known.has(productId)) return thumbImage(known.get(productId));
      const el = thumbImage(null);
      if (productId) {
        if (!slots.has(productId)) slots.set(productId, []);
        slots.get(productId).push(el);
      }
      return el;
    },
    async load() {
      const ids = [...slots.keys()].slice(0, 100);
      if (!ids.length) return;
      try {
        const res = await api('GET', '/product-thumbnails?productIds=' + ids.map(encodeURIComponent).join(','));
        for (const t of res.data) {
          for (const el of slots.get(t.productId) || []) replace(el, picture(t.thumb));
        }
      } catch {
        // Thumbnails are decoration: a list without them still works.
      }
    },
  };
}

/** mediaPanel is the product page's images section body. */
export async function mediaPanel(p) {
  const id = encodeURIComponent(p.id);
  const root = h('div', { class: 'media-panel' });
  const status = h('div', { class: 'form-status' });
  const list = h('ol', { class: 'media-list', 'aria-label': `Images of ${p.title}` });
  const uploads = h('ul', { class: 'uploads', 'aria-live': 'polite' });
  const canUpload = allowed('POST', '/products/{}/images');
  const canEdit = allowed('PATCH', '/products/{}/images/{}');
  const canDelete = allowed('DELETE', '/products/{}/images/{}');
  let timer = null;

  const fail = (err) => status.replaceChildren(errorNotice(err));
  // draw shows images, and polls while one is processing.
  const draw = (images) => {
    replace(list, images.length ? images.map((img, i) => imageCard(img, i, images.length)) : h('li', { class: 'empty' }, 'No images yet.'));
    if (images.some((img) => img.status === 'processing')) timer = setTimeout(refresh, POLL_MS);
    else timer = 0;
  };
  const refresh = async () => {
    clearTimeout(timer);
    if (!root.isConnected && timer !== null) return; // the page was left
    let res;
    try {
      res = await api('GET', `/products/${id}/images`);
    } catch (err) {
      fail(err);
      return;
    }
    draw(res.data);
  };

  const imageCard = (img, i, count) => {
    const preview = img.renditions.thumb
      ? h('img', { src: img.renditions.thumb, alt: img.alt || `Image ${i + 1}`, width: 96, height: 96, loading: 'lazy' })
      : h('span', { class: 'media-placeholder' }, img.status === 'failed' ? '!' : '…');
    const parts = [h('div', { class: 'media-preview' }, preview),
      h('div', { class: 'media-meta' },
        h('strong', {}, `#${i + 1}`), ' ', badge(img.status),
        img.status === 'ready' ? h('span', { class: 'muted' }, ` ${img.width}×${img.height}`) : null,
        img.failureReason ? h('p', { class: 'muted' }, img.failureReason) : null)];
    if (canEdit) {
      const altId = uid('alt');
      const alt = h('input', { id: altId, type: 'text', maxlength: 512, value: img.alt });
      const variants = (p.variants || []).map((v) => {
        const boxId = uid('iv');
        const box = h('input', { id: boxId, type: 'checkbox', value: v.id, checked: img.variantIds.includes(v.id) });
        return h('span', { class: 'check' }, box, h('label', { for: boxId }, v.sku));
      });
      const save = button('Save', async () => {
        const variantIds = variants.map((el) => el.querySelector('input')).filter((b) => b.checked).map((b) => b.value);
        try {
          await api('PATCH', `/products/${id}/images/${img.id}`, { alt: alt.value, variantIds });
          status.replaceChildren(notice('ok', 'Image saved.'));
          refresh();
        } catch (err) { fail(err); }
      });
      const move = (to) => async () => {
        try {
          await api('PATCH', `/products/${id}/images/${img.id}`, { position: to });
          refresh();
        } catch (err) { fail(err); }
      };
      parts.push(h('div', { class: 'media-edit' },
        h('label', { for: altId }, 'Alt text'), alt,
        variants.length ? h('fieldset', { class: 'media-variants' }, h('legend', {}, 'Shown for variants'), variants) : null,
        h('div', { class: 'actions' },
          save,
          button('↑', move(i - 1), { attrs: { disabled: i === 0, 'aria-label': `Move image ${i + 1} up` } }),
          button('↓', move(i + 1), { attrs: { disabled: i === count - 1, 'aria-label': `Move image ${i + 1} down` } }),
          canDelete ? button('Delete', async () => {
            if (!(await confirm(`Delete image ${i + 1}? Its files are removed from the storefront.`, 'Delete'))) return;
            try {
              await api('DELETE', `/products/${id}/images/${img.id}`);
              refresh();
            } catch (err) { fail(err); }
          }, { kind: 'danger' }) : null)));
    }
    return h('li', { class: ['media-item', `media-${img.status}`], dataset: { id: img.id } }, parts);
  };

  const upload = (file) => {
    const bar = h('progress', { max: 100, value: 0, 'aria-label': `Uploading ${file.name}` });
    const line = h('li', {}, h('span', {}, file.name), ' ', bar);
    uploads.append(line);
    const send = (retried) => new Promise((resolve) => {
      const body = new FormData();
      body.append('file', file);
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${BASE}/products/${id}/images`);
      // X-Requested-With lets the server take a cookie-authenticated form
      // from this script only (docs/DECISIONS.md "Product media").
      xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
      xhr.setRequestHeader('Idempotency-Key', crypto.randomUUID());
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = Math.round((100 * e.loaded) / e.total); };
      xhr.onload = async () => {
        if (xhr.status === 401 && !retried) {
          // An expired access cookie: any API call refreshes it; then once more.
          try { await api('GET', `/products/${id}/images`); } catch { /* reported below */ }
          resolve(send(true));
          return;
        }
        let parsed = null;
        try { parsed = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
        if (xhr.status === 201) {
          line.remove();
        } else {
          replace(line, h('span', {}, file.name), ' ', errorNotice(new ApiError(xhr.status, parsed)));
        }
        resolve();
      };
      xhr.onerror = () => {
        replace(line, h('span', {}, file.name), ' ', errorNotice(new ApiError(0, null)));
        resolve();
      };
      xhr.send(body);
    });
    return send(false);
  };

  const uploadAll = async (files) => {
    status.replaceChildren();
    // One at a time: positions follow the order chosen.
    for (const f of files) await upload(f);
    refresh();
  };

  if (canUpload) {
    const inputId = uid('file');
    const input = h('input', { id: inputId, type: 'file', accept: 'image/jpeg,image/png,image/webp,image/gif', multiple: true, class: 'visually-hidden' });
    input.addEventListener('change', () => { uploadAll([...input.files]); input.value = ''; });
    const zone = h('div', { class: 'dropzone' },
      h('p', {}, 'Drop JPEG, PNG, WebP or GIF images here, or ', h('label', { for: inputId, class: 'button' }, 'choose files'), '.'),
      h('p', { class: 'muted' }, 'Up to 10 MiB and 40 megapixels each; at most 50 images a product.'), input);
    zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragging'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('dragging');
      uploadAll([...e.dataTransfer.files]);
    });
    root.append(zone, uploads);
  }
  root.append(status, list);
  // The product's detail carries its images: the first drawing costs no request.
  if (Array.isArray(p.images)) draw(p.images);
  else await refresh();
  return root;
}
