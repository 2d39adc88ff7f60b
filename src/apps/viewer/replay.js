// SPDX-License-Identifier: BSD-3-Clause
// The replay page's viewer: draws the bodies of the page's data object
// (replay_page.hpp describes it) with three.js, z up, and plays its frames.
// The URL hash may fix the view:
//   #camera=px,py,pz,tx,ty,tz[,fov]  camera position, target, vertical field of view (degrees)
//   &frame=N                         show frame N, paused
//   &contacts=0                      hide the contacts
//   &ui=0                            hide the title, the control panel, the legend and the timeline strip
// A robot page (robot_page.hpp) adds "links", bodies' "link", frames' "clearances" and
// "colour_scale": its links are coloured by clearance, with a legend; with "strip" its
// timelines are drawn under the 3-D view, with a cursor on the frame shown.
(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('proxima-data').textContent);
  const frames = data.frames;
  const bodies = data.bodies;
  const hash = parseHash(window.location.hash);

  // Colours the viewer's test looks for: keep them in step with tests/apps/viewer_test.py.
  const CONTACT_COLOUR = 0xff00ff;
  const NORMAL_COLOUR = 0xff8800;
  const SEGMENT_COLOUR = 0x00a0ff;
  const STATIC_COLOUR = 0x9a9a9a;
  const STRIP_CURSOR_COLOUR = '#7000ff';
  // Clearance colours, near end first: red, yellow, green.
  const SCALE_STOPS = [[0xd7, 0x19, 0x1c], [0xf5, 0xc8, 0x2a], [0x1a, 0x96, 0x41]];
  const PALETTE = [0x3b75af, 0xd1603d, 0x519e3e, 0x8d69b8, 0xc53a32, 0x84584e, 0xd57dbe, 0x4eb1bc, 0xbcbd45];

  function parseHash(text) {
    const out = {};
    text.replace(/^#/, '').split('&').forEach(function (part) {
      const eq = part.indexOf('=');
      if (eq > 0) out[decodeURIComponent(part.slice(0, eq))] = decodeURIComponent(part.slice(eq + 1));
    });
    return out;
  }

  THREE.Object3D.DefaultUp.set(0, 0, 1);

  // The timelines strip takes the bottom of the window; the 3-D view the rest.
  const scale = data.colour_scale || null;
  const withStrip = !!data.strip && hash.ui !== '0';
  const view = document.getElementById('view');
  if (withStrip) {
    view.classList.add('with-strip');
    document.getElementById('panel').classList.add('with-strip');
  }
  function viewWidth() { return view.clientWidth || window.innerWidth; }
  function viewHeight() { return view.clientHeight || window.innerHeight; }

  // ---- clearance colours: red at scale.near and below, green at scale.far and beyond ----
  function scaleRgb(value) {
    // Nothing measured (null) is as far as can be.
    let u = value === null || value === undefined ? 1 : (value - scale.near) / (scale.far - scale.near);
    u = Math.max(0, Math.min(1, u)) * (SCALE_STOPS.length - 1);
    const k = Math.min(SCALE_STOPS.length - 2, Math.floor(u)), w = u - k;
    return SCALE_STOPS[k].map(function (c, i) { return Math.round(c + w * (SCALE_STOPS[k + 1][i] - c)); });
  }
  function scaleColour(value) {
    const rgb = scaleRgb(value);
    return (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];
  }

  // ---- extent of the scene: the bounded bodies over every frame ----
  function boundingRadius(shape) {
    const m = shape.margin || 0;
    switch (shape.kind) {
      case 'sphere': return shape.radius + m;
      case 'box': return 0.5 * Math.hypot(shape.size[0], shape.size[1], shape.size[2]) + m;
      case 'capsule': return shape.radius + 0.5 * shape.length + m;
      case 'cylinder': case 'cone': return Math.hypot(shape.radius, 0.5 * shape.length) + m;
      case 'ellipsoid': return Math.max(shape.radii[0], shape.radii[1], shape.radii[2]) + m;
      case 'convex': case 'mesh': {
        let r = 0;
        for (let i = 0; i < shape.vertices.length; i += 3) {
          r = Math.max(r, Math.hypot(shape.vertices[i], shape.vertices[i + 1], shape.vertices[i + 2]));
        }
        return r + m;
      }
      default: return 0;  // a halfspace is sized from the others
    }
  }

  const box = new THREE.Box3();
  let smallest = Infinity;  // bounding radius of the smallest bounded body
  const dynamicIndex = [];  // body → its column in a frame's poses, −1 for static bodies
  let dynamicCount = 0;
  bodies.forEach(function (b) { dynamicIndex.push(b.static ? -1 : dynamicCount++); });
  function bodyPose(bodyIndex, frame) {
    const k = dynamicIndex[bodyIndex];
    return k < 0 ? bodies[bodyIndex].pose : frame.poses[k];
  }
  // A frame may give each body's shape (a query page's frames are requests).
  function bodyShape(bodyIndex, frame) {
    return frame && frame.shapes ? frame.shapes[bodyIndex] : bodies[bodyIndex].shape;
  }
  bodies.forEach(function (b, i) {
    frames.forEach(function (f) {
      const shape = data.shapes[bodyShape(i, f)];
      const p = bodyPose(i, f);
      if (!p || shape.kind === 'halfspace') return;
      const r = boundingRadius(shape);
      if (r > 0) smallest = Math.min(smallest, r);
      box.expandByPoint(new THREE.Vector3(p[0] - r, p[1] - r, p[2] - r));
      box.expandByPoint(new THREE.Vector3(p[0] + r, p[1] + r, p[2] + r));
    });
  });
  frames.forEach(function (f) {
    (f.contacts || []).forEach(function (c) { box.expandByPoint(new THREE.Vector3(c[0], c[1], c[2])); });
  });
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const centre = box.getCenter(new THREE.Vector3());
  const extent = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-3);

  // ---- geometry of each shape kind, local z as the scene format's axis ----
  function lathe(profile) {
    const g = new THREE.LatheBufferGeometry(profile, 48);
    g.rotateX(Math.PI / 2);  // the lathe's y axis becomes z
    return g;
  }

  function capsuleGeometry(r, h) {
    const profile = [];
    const n = 12;
    for (let i = 0; i <= n; ++i) {
      const a = -Math.PI / 2 + (i / n) * (Math.PI / 2);
      profile.push(new THREE.Vector2(r * Math.cos(a), -h + r * Math.sin(a)));
    }
    for (let i = 0; i <= n; ++i) {
      const a = (i / n) * (Math.PI / 2);
      profile.push(new THREE.Vector2(r * Math.cos(a), h + r * Math.sin(a)));
    }
    return lathe(profile);
  }

  function polygonGeometry(vertices, polygons) {
    const positions = [];
    polygons.forEach(function (poly) {
      for (let k = 1; k + 1 < poly.length; ++k) {
        [poly[0], poly[k], poly[k + 1]].forEach(function (v) {
          positions.push(vertices[3 * v], vertices[3 * v + 1], vertices[3 * v + 2]);
        });
      }
    });
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
    g.computeVertexNormals();
    return g;
  }

  function meshTriangles(t) {
    const out = [];
    for (let i = 0; i < t.length; i += 3) out.push([t[i], t[i + 1], t[i + 2]]);
    return out;
  }

  // Primitives are drawn grown by their margin (a box keeps sharp corners);
  // polytopes and meshes are drawn as their cores.
  function shapeGeometry(shape) {
    const m = shape.margin || 0;
    switch (shape.kind) {
      case 'sphere': return new THREE.SphereBufferGeometry(shape.radius + m, 32, 16);
      case 'box':
        return new THREE.BoxBufferGeometry(shape.size[0] + 2 * m, shape.size[1] + 2 * m, shape.size[2] + 2 * m);
      case 'capsule': return capsuleGeometry(shape.radius + m, 0.5 * shape.length);
      case 'cylinder': {
        const g = new THREE.CylinderBufferGeometry(shape.radius + m, shape.radius + m, shape.length + 2 * m, 48);
        g.rotateX(Math.PI / 2);
        return g;
      }
      case 'cone': {
        const g = new THREE.ConeBufferGeometry(shape.radius + m, shape.length + 2 * m, 48);
        g.rotateX(Math.PI / 2);  // apex at +z, as the scene format's cone
        return g;
      }
      case 'ellipsoid': {
        const g = new THREE.SphereBufferGeometry(1, 32, 16);
        g.scale(shape.radii[0] + m, shape.radii[1] + m, shape.radii[2] + m);
        return g;
      }
      case 'halfspace': {
        // A large finite square on the boundary plane normal·x = offset.
        const size = 4 * extent;
        const g = new THREE.PlaneBufferGeometry(size, size, 1, 1);
        const n = new THREE.Vector3(shape.normal[0], shape.normal[1], shape.normal[2]).normalize();
        g.applyMatrix(new THREE.Matrix4().makeRotationFromQuaternion(
          new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 0, 1), n)));
        // Centred below the scene's centre, so the square covers what rests on it.
        const along = centre.clone().sub(n.clone().multiplyScalar(centre.dot(n) - shape.offset - m));
        g.translate(along.x, along.y, along.z);
        return g;
      }
      case 'convex': return polygonGeometry(shape.vertices, shape.faces);
      case 'mesh': return polygonGeometry(shape.vertices, meshTriangles(shape.triangles));
      default: throw new Error('unknown shape kind ' + shape.kind);
    }
  }

  // ---- the scene ----
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(viewWidth(), viewHeight());
  renderer.setClearColor(0xf4f5f7);
  document.getElementById('view').appendChild(renderer.domElement);

  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 0.75));
  const sun = new THREE.DirectionalLight(0xffffff, 0.55);
  sun.position.set(0.4, -0.6, 1.0);
  scene.add(sun);

  const geometries = data.shapes.map(shapeGeometry);
  function tipOf(b, shape) { return b.name + (b.static ? ' (static)' : '') + ', ' + shape.kind; }
  function isLink(b) { return scale !== null && b.link !== undefined; }
  const bodyObjects = bodies.map(function (b, i) {
    const shape = data.shapes[b.shape];
    let colour = b.static ? STATIC_COLOUR : PALETTE[dynamicIndex[i] % PALETTE.length];
    if (isLink(b)) colour = scaleColour(null);
    const material = new THREE.MeshLambertMaterial({
      color: colour, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1
    });
    const mesh = new THREE.Mesh(geometries[b.shape], material);
    mesh.userData.tip = tipOf(b, shape);
    scene.add(mesh);
    return mesh;
  });

  // Contact markers and normal arrows are drawn over everything (no depth
  // test), so a contact between two bodies is seen from any side.
  // Sized to the scene and to its smallest body, so that a stack of small
  // cubes on a large floor keeps its contacts apart.
  const markerRadius = Math.min(0.008 * extent, 0.08 * smallest);
  const arrowLength = Math.min(0.06 * extent, 0.8 * smallest);
  const markerGeometry = new THREE.SphereBufferGeometry(1, 12, 8);
  const markerMaterial = new THREE.MeshBasicMaterial({ color: CONTACT_COLOUR, depthTest: false });
  const segmentMaterial = new THREE.LineBasicMaterial({ color: SEGMENT_COLOUR, depthTest: false });
  const witnessMaterial = new THREE.MeshBasicMaterial({ color: SEGMENT_COLOUR, depthTest: false });
  const overlay = new THREE.Group();
  scene.add(overlay);
  const markers = [], arrows = [], segments = [], witnesses = [];

  function marker(pool, i, material) {
    while (pool.length <= i) {
      const m = new THREE.Mesh(markerGeometry, material);
      m.scale.setScalar(markerRadius);
      m.renderOrder = 20;
      overlay.add(m);
      pool.push(m);
    }
    return pool[i];
  }

  function arrow(i) {
    while (arrows.length <= i) {
      const a = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), arrowLength, NORMAL_COLOUR,
                                      0.3 * arrowLength, 0.15 * arrowLength);
      a.line.material.depthTest = false;
      a.cone.material.depthTest = false;
      a.line.renderOrder = 10;
      a.cone.renderOrder = 10;
      overlay.add(a);
      arrows.push(a);
    }
    return arrows[i];
  }

  function segment(i) {
    while (segments.length <= i) {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0, 0, 0, 0], 3));
      const l = new THREE.Line(g, segmentMaterial);
      l.renderOrder = 15;
      overlay.add(l);
      segments.push(l);
    }
    return segments[i];
  }

  // ---- camera and controls ----
  const camera = new THREE.PerspectiveCamera(45, viewWidth() / viewHeight(), extent * 1e-3, extent * 100);
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  const cam = (hash.camera || '').split(',').map(Number);
  if (cam.length >= 6 && cam.every(isFinite)) {
    camera.position.set(cam[0], cam[1], cam[2]);
    controls.target.set(cam[3], cam[4], cam[5]);
    if (cam.length >= 7) camera.fov = cam[6];
  } else {
    if (hash.camera) throw new Error('#camera: expected px,py,pz,tx,ty,tz[,fov], got ' + hash.camera);
    camera.position.copy(centre).add(new THREE.Vector3(0.55, -0.8, 0.45).multiplyScalar(extent));
    controls.target.copy(centre);
  }
  camera.updateProjectionMatrix();
  controls.update();
  controls.addEventListener('change', render);

  // ---- frames ----
  const slider = document.getElementById('slider');
  const info = document.getElementById('info');
  const showContacts = document.getElementById('show-contacts');
  const playButton = document.getElementById('play');
  slider.max = String(frames.length - 1);
  document.getElementById('title').textContent = data.title || '';
  if (hash.ui === '0') {
    document.getElementById('panel').classList.add('hidden');
    document.getElementById('title').classList.add('hidden');
  }
  if (hash.contacts === '0') showContacts.checked = false;

  let current = 0;
  if (frames.length === 0) {
    info.textContent = 'no frames';
    bodyObjects.forEach(function (mesh) { mesh.visible = false; });
    render();
    document.body.setAttribute('data-proxima-ready', '0');
    return;
  }
  function formatNumber(x) {
    return Math.abs(x) >= 1e4 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(3) : x.toPrecision(4);
  }

  function showFrame(i) {
    current = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[current];
    bodyObjects.forEach(function (mesh, b) {
      const p = bodyPose(b, f);
      mesh.visible = !!p;
      if (!p) return;
      if (f.shapes) {
        mesh.geometry = geometries[f.shapes[b]];
        mesh.userData.tip = tipOf(bodies[b], data.shapes[f.shapes[b]]);
      }
      mesh.position.set(p[0], p[1], p[2]);
      mesh.quaternion.set(p[4], p[5], p[6], p[3]);  // the page stores w first, three.js last
      if (isLink(bodies[b])) {
        const c = f.clearances ? f.clearances[bodies[b].link] : null;
        mesh.material.color.setHex(scaleColour(c));
        mesh.userData.tip = bodies[b].name + ': clearance ' +
          (c === null || c === undefined ? 'not measured' : formatNumber(1000 * c) + ' mm');
      }
    });
    const contacts = showContacts.checked ? (f.contacts || []) : [];
    markers.forEach(function (m) { m.visible = false; });
    arrows.forEach(function (a) { a.visible = false; });
    contacts.forEach(function (c, k) {
      const m = marker(markers, k, markerMaterial);
      m.position.set(c[0], c[1], c[2]);
      m.userData.tip = 'contact ' + (k + 1) + ': depth ' + formatNumber(c[6]) + ' m\nnormal (' +
        [c[3], c[4], c[5]].map(formatNumber).join(', ') + ')';
      m.visible = true;
      const a = arrow(k);
      a.position.set(c[0], c[1], c[2]);
      a.setDirection(new THREE.Vector3(c[3], c[4], c[5]).normalize());
      a.visible = true;
    });
    segments.forEach(function (s) { s.visible = false; });
    witnesses.forEach(function (w) { w.visible = false; });
    (f.segments || []).forEach(function (s, k) {
      const l = segment(k);
      const pos = l.geometry.attributes.position;
      pos.setXYZ(0, s[0], s[1], s[2]);
      pos.setXYZ(1, s[3], s[4], s[5]);
      pos.needsUpdate = true;
      l.geometry.computeBoundingSphere();
      l.visible = true;
      [0, 1].forEach(function (end) {
        const w = marker(witnesses, 2 * k + end, witnessMaterial);
        w.position.set(s[3 * end], s[3 * end + 1], s[3 * end + 2]);
        w.userData.tip = (end === 0 ? 'point on a' : 'point on b') + '\ndistance ' +
          formatNumber(Math.hypot(s[3] - s[0], s[4] - s[1], s[5] - s[2])) + ' m';
        w.visible = true;
      });
    });
    slider.value = String(current);
    let text = 'frame ' + (current + 1) + '/' + frames.length + '  ';
    if (f.label !== undefined) {
      text += f.label;
    } else {
      text += 'step ' + f.step + '  t = ' + f.time.toFixed(3) + ' s  contacts ' +
        (f.contacts_total !== undefined ? f.contacts_total : (f.contacts || []).length);
    }
    if (!withStrip) {
      (data.timelines || []).forEach(function (t) {
        if (t.name === 'contacts') return;
        text += '  ' + t.name + ' ' + valueText(t, t.values[current]);
      });
    }
    info.textContent = text;
    drawPlot();
    drawStrip();
    render();
  }

  function render() { renderer.render(scene, camera); }

  // A scale's round values as short as they are: 0.2, not 0.2000.
  function tickText(v) { return String(Number(v.toPrecision(4))); }

  function valueText(t, v) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    if (t.labels && t.labels[v] !== undefined) return t.labels[v];
    return formatNumber(v) + (t.unit ? ' ' + t.unit : '');
  }

  // ---- the legend of the clearance colours ----
  if (scale !== null && hash.ui !== '0') {
    const legend = document.getElementById('legend');
    legend.classList.remove('hidden');
    document.getElementById('legend-title').textContent = (scale.quantity || 'clearance') + ' (' + scale.unit + ')';
    const bar = document.getElementById('legend-bar');
    const ctx = bar.getContext('2d');
    for (let x = 0; x < bar.width; ++x) {
      const rgb = scaleRgb(scale.near + (x / (bar.width - 1)) * (scale.far - scale.near));
      ctx.fillStyle = 'rgb(' + rgb.join(',') + ')';
      ctx.fillRect(x, 0, 1, bar.height);
    }
    const ticks = document.getElementById('legend-ticks');
    ticks.style.width = bar.width + 'px';
    [0, 0.5, 1].forEach(function (u) {
      const label = document.createElement('span');
      // The ends inside the bar's width, the middle centred on its value.
      if (u === 0) label.style.left = '0';
      else if (u === 1) label.style.right = '0';
      else label.style.left = (u * 100) + '%';
      if (u !== 0.5) label.style.transform = 'none';
      const v = scale.near + u * (scale.far - scale.near);
      label.textContent = (u === 1 ? '≥ ' : '') + tickText(v) + (u === 1 ? ' ' + scale.unit : '');
      ticks.appendChild(label);
    });
  }

  // ---- the timelines strip: one row per timeline against time, the cursor on the current frame ----
  const stripCanvas = document.getElementById('strip');
  const STRIP_LEFT = 150, STRIP_RIGHT = 12;
  const stripRows = (data.timelines || []).filter(function (t) {
    return t.values && t.values.length === frames.length;
  });
  const t0 = frames.length ? frames[0].time : 0;
  const t1 = frames.length ? frames[frames.length - 1].time : 1;
  function stripX(time) {
    const w = stripCanvas.width - STRIP_LEFT - STRIP_RIGHT;
    return STRIP_LEFT + (t1 > t0 ? (time - t0) / (t1 - t0) : 0) * w;
  }
  if (withStrip) {
    stripCanvas.classList.remove('hidden');
    stripCanvas.width = stripCanvas.clientWidth || window.innerWidth;
    stripCanvas.height = stripCanvas.clientHeight || 150;
    document.getElementById('timeline').style.display = 'none';
    document.getElementById('plot').style.display = 'none';
  }
  function drawStrip() {
    if (!withStrip) return;
    const ctx = stripCanvas.getContext('2d');
    const w = stripCanvas.width, h = stripCanvas.height;
    ctx.clearRect(0, 0, w, h);
    ctx.font = '11px sans-serif';
    const rowHeight = (h - 16) / Math.max(1, stripRows.length);
    stripRows.forEach(function (t, r) {
      const top = r * rowHeight + 4, bottom = (r + 1) * rowHeight - 4;
      let lo = Infinity, hi = -Infinity;
      t.values.forEach(function (v) { if (v !== null && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
      if (t.labels) { lo = 0; hi = t.labels.length - 1; }
      if (!(hi > lo)) { lo = (isFinite(lo) ? lo : 0) - 1; hi = lo + 2; }
      const y = function (v) { return bottom - ((v - lo) / (hi - lo)) * (bottom - top); };
      ctx.fillStyle = '#222';
      ctx.textAlign = 'left';
      ctx.fillText(t.name + (t.unit ? ' (' + t.unit + ')' : ''), 4, top + 10);
      ctx.fillStyle = '#666';
      ctx.textAlign = 'right';
      ctx.fillText(t.labels ? t.labels[hi] : tickText(hi), STRIP_LEFT - 4, top + 9);
      ctx.fillText(t.labels ? t.labels[lo] : tickText(lo), STRIP_LEFT - 4, bottom);
      ctx.strokeStyle = '#e3e3e3';
      ctx.strokeRect(STRIP_LEFT, top, w - STRIP_LEFT - STRIP_RIGHT, bottom - top);
      ctx.strokeStyle = '#3b75af';
      ctx.beginPath();
      let pen = false, lastY = 0;
      t.values.forEach(function (v, i) {
        if (v === null || !isFinite(v)) { pen = false; return; }
        const x = stripX(frames[i].time);
        if (t.labels && pen) ctx.lineTo(x, lastY);  // levels are steps
        if (pen) ctx.lineTo(x, y(v)); else ctx.moveTo(x, y(v));
        lastY = y(v);
        pen = true;
      });
      ctx.stroke();
    });
    ctx.fillStyle = '#666';
    ctx.textAlign = 'left';
    ctx.fillText(tickText(t0) + ' s', STRIP_LEFT, h - 3);
    ctx.textAlign = 'right';
    ctx.fillText(tickText(t1) + ' s', w - STRIP_RIGHT, h - 3);
    const x = Math.round(stripX(frames[current].time));
    ctx.fillStyle = STRIP_CURSOR_COLOUR;
    ctx.fillRect(x - 1, 0, 3, h - 14);
    stripCanvas.setAttribute('data-cursor-x', String(x));
    stripCanvas.setAttribute('data-cursor-frame', String(current));
  }
  // The frame nearest in time to a point of the strip.
  function stripFrame(e) {
    const rect = stripCanvas.getBoundingClientRect();
    const x = (e.clientX - rect.left) * (stripCanvas.width / rect.width);
    const w = stripCanvas.width - STRIP_LEFT - STRIP_RIGHT;
    const time = t0 + Math.max(0, Math.min(1, (x - STRIP_LEFT) / w)) * (t1 - t0);
    let best = 0;
    frames.forEach(function (f, i) { if (Math.abs(f.time - time) < Math.abs(frames[best].time - time)) best = i; });
    return best;
  }
  let stripDragging = false;
  stripCanvas.addEventListener('pointerdown', function (e) {
    stripDragging = true;
    setPlaying(false);
    showFrame(stripFrame(e));
  });
  stripCanvas.addEventListener('pointermove', function (e) { if (stripDragging) showFrame(stripFrame(e)); });
  window.addEventListener('pointerup', function () { stripDragging = false; });

  // ---- one timeline plotted over all frames, with the current frame marked ----
  const timelineSelect = document.getElementById('timeline');
  const plot = document.getElementById('plot');
  const timelines = (data.timelines || []).filter(function (t) {
    return t.values && t.values.length === frames.length;
  });
  timelines.forEach(function (t, i) {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = t.name + (t.unit ? ' (' + t.unit + ')' : '');
    timelineSelect.appendChild(option);
  });
  if (timelines.length === 0 || frames.length < 2) {
    timelineSelect.style.display = 'none';
    plot.style.display = 'none';
  }
  function drawPlot() {
    if (plot.style.display === 'none') return;
    const values = timelines[Number(timelineSelect.value) || 0].values;
    const ctx = plot.getContext('2d');
    const w = plot.width, h = plot.height;
    let lo = Infinity, hi = -Infinity;
    values.forEach(function (v) { if (isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    if (!(hi > lo)) { lo -= 1; hi += 1; }
    ctx.clearRect(0, 0, w, h);
    ctx.strokeStyle = '#3b75af';
    ctx.beginPath();
    values.forEach(function (v, i) {
      if (!isFinite(v)) return;
      const x = (i / (values.length - 1)) * (w - 1), y = h - 2 - ((v - lo) / (hi - lo)) * (h - 4);
      if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    });
    ctx.stroke();
    const x = (current / (values.length - 1)) * (w - 1);
    ctx.strokeStyle = '#c00';
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, h);
    ctx.stroke();
  }
  timelineSelect.addEventListener('change', drawPlot);
  plot.addEventListener('click', function (e) {
    setPlaying(false);
    showFrame(Math.round((e.offsetX / plot.clientWidth) * (frames.length - 1)));
  });

  // ---- playing: in simulated time when the frames have it, else a frame a second ----
  let playing = false, playStart = 0, playFrom = 0;
  const duration = frames[frames.length - 1].time - frames[0].time;
  function setPlaying(on) {
    playing = on && frames.length > 1;
    playButton.textContent = playing ? 'Pause' : 'Play';
    if (playing) {
      if (current === frames.length - 1) showFrame(0);
      playStart = performance.now();
      playFrom = current;
      requestAnimationFrame(tick);
    }
  }
  function tick(now) {
    if (!playing) return;
    const elapsed = (now - playStart) / 1000;
    let i = playFrom;
    if (duration > 0) {
      const t = frames[playFrom].time + elapsed;
      while (i + 1 < frames.length && frames[i + 1].time <= t) ++i;
    } else {
      i = playFrom + Math.floor(elapsed);
    }
    if (i !== current) showFrame(i);
    if (current >= frames.length - 1) setPlaying(false);
    else requestAnimationFrame(tick);
  }
  playButton.addEventListener('click', function () { setPlaying(!playing); });
  slider.addEventListener('input', function () { setPlaying(false); showFrame(Number(slider.value)); });
  showContacts.addEventListener('change', function () { showFrame(current); });

  // ---- hover: contact details, else the body's name ----
  const tip = document.getElementById('tip');
  const raycaster = new THREE.Raycaster();
  renderer.domElement.addEventListener('pointermove', function (e) {
    const mouse = new THREE.Vector2((e.clientX / viewWidth()) * 2 - 1, -(e.clientY / viewHeight()) * 2 + 1);
    raycaster.setFromCamera(mouse, camera);
    const pickable = markers.concat(witnesses).filter(function (m) { return m.visible; });
    let hit = raycaster.intersectObjects(pickable)[0];
    if (!hit) hit = raycaster.intersectObjects(bodyObjects.filter(function (m) { return m.visible; }))[0];
    if (!hit) { tip.style.display = 'none'; return; }
    tip.textContent = hit.object.userData.tip;
    tip.style.left = (e.clientX + 12) + 'px';
    tip.style.top = (e.clientY + 12) + 'px';
    tip.style.display = 'block';
  });
  renderer.domElement.addEventListener('pointerleave', function () { tip.style.display = 'none'; });

  window.addEventListener('resize', function () {
    camera.aspect = viewWidth() / viewHeight();
    camera.updateProjectionMatrix();
    renderer.setSize(viewWidth(), viewHeight());
    if (withStrip) {
      stripCanvas.width = stripCanvas.clientWidth;
      drawStrip();
    }
    render();
  });
  window.addEventListener('hashchange', function () { window.location.reload(); });

  if (hash.frame !== undefined) {
    const n = Number(hash.frame);
    if (!Number.isInteger(n) || n < 0 || n >= frames.length) {
      throw new Error('#frame: ' + hash.frame + ' is not a frame number from 0 to ' + (frames.length - 1));
    }
    showFrame(n);
  } else {
    showFrame(0);
    setPlaying(true);
  }
  document.body.setAttribute('data-proxima-ready', String(frames.length));
})();
