// The packaging viewer: loads one same-origin binary glTF (?model=, or ?share=<token> for the
// model behind a share link), lights it with a preset (?lighting=studio|softbox|dramatic|outdoor)
// in a room environment over a ground with a soft contact shadow, sets the background
// (?background=#rrggbb), looks from ?angle=front|three-quarter|top|bottom|back (default three-quarter), and (unless
// ?controls=none) offers the controls a shop page needs: presets, the fold (slider and play, for models with a `fold`
// animation), reset view, screenshot (optionally transparent, at 1×, 2× or 4× the canvas),
// an iframe embed snippet, an AR button (Quick Look with the USDZ on iOS, Scene Viewer with the glb
// on Android), keyboard control and a dimensions readout. State is published on
// <body data-state> (loading, ready, error) and the `window.packagingViewer` handle, for embedding
// pages and the browser tests.
import {
  AmbientLight,
  AnimationMixer,
  Box3,
  Color,
  DirectionalLight,
  HemisphereLight,
  Mesh,
  NeutralToneMapping,
  PCFSoftShadowMap,
  PerspectiveCamera,
  PlaneGeometry,
  PMREMGenerator,
  Scene,
  ShadowMaterial,
  Spherical,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
  type AnimationAction,
  type AnimationClip,
  type Object3D,
  type Texture,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { isPreset, LIGHTING_PRESETS, parseHexColor, PRESETS, type LightingPreset } from './presets.js';

interface ViewerHandle {
  lighting: LightingPreset;
  background: string;
  /** Whether the model folds (has a `fold` animation). */
  hasFold: boolean;
  /** 0 = the flat blank, 1 = closed. */
  fold: number;
  /** Outside size of the closed model in millimetres (x, y, z), or null before it loads. */
  dimensionsMm: { width: number; height: number; depth: number } | null;
  /** Screen position (CSS pixels) of a named node's centre, e.g. a box panel. */
  screenPositionOf(name: string): { x: number; y: number } | null;
  setLighting(preset: LightingPreset): void;
  setFold(amount: number): void;
  resetView(): void;
  /**
   * The current view as a PNG data URL, on the background or transparent, at `scale` (1, 2 or 4)
   * times the canvas's pixels: the same picture, drawn again at that resolution.
   */
  screenshot(transparent: boolean, scale?: number): string;
  /** The camera's distance from its target (for zoom limits). */
  cameraDistance(): number;
}

declare global {
  interface Window {
    packagingViewer?: ViewerHandle;
  }
}

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = element<HTMLDivElement>('status');
const canvas = element<HTMLCanvasElement>('viewer');
const toolbar = element<HTMLDivElement>('toolbar');

/** Where the camera first looks from (?angle=), as a direction from the model's centre (+Z is the front). */
const ANGLES = {
  front: [0, 0.12, 1],
  'three-quarter': [0.35, 0.4, 1],
  top: [0, 1, 0.001],
  bottom: [0, -1, 0.001],
  back: [0, 0.12, -1],
} as const satisfies Record<string, readonly [number, number, number]>;
type Angle = keyof typeof ANGLES;
const isAngle = (value: string): value is Angle => Object.hasOwn(ANGLES, value);
/** Screenshot sizes the toolbar offers, as multiples of the canvas. */
const SCREENSHOT_SCALES = [1, 2, 4];

/** A share link's token: the model behind it, on this origin, with no login. */
const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const FOLD_SECONDS_MIN = 0.5;

function fail(message: string): void {
  status.textContent = message;
  document.body.dataset.state = 'error';
}

/** Only same-origin model URLs: the page never loads a model from elsewhere. */
function modelUrl(param: string | null): URL | null {
  if (!param) return null;
  try {
    const url = new URL(param, window.location.href);
    return url.origin === window.location.origin ? url : null;
  } catch {
    return null;
  }
}

function sharedModelUrl(token: string): URL {
  return new URL(`shared/${token}/model`, window.location.href);
}

/** Why a model did not load, in words for the person looking at the page. */
function loadFailure(httpStatus: number | null, shared: boolean): string {
  if (httpStatus === null) return 'The model could not be reached: check the connection and reload.';
  if (httpStatus === 404) return shared ? 'This share link does not exist, has expired or was revoked.' : 'The model was not found.';
  if (httpStatus === 401 || httpStatus === 403) return "This model needs its owner's sign-in: ask for a share link.";
  if (httpStatus === 503) return 'The model is busy being made: reload in a moment.';
  return `The model could not be loaded (HTTP ${httpStatus}).`;
}

/**
 * The iframe to paste into a page: only a share link shows a project to visitors, so without one
 * the panel says how to get one instead of handing out a URL that asks for a sign-in.
 */
function embedSnippet(shared: boolean): string {
  if (!shared) return 'Embedding needs a share link: create one for this project (Share), open it, and copy the snippet there.';
  const src = window.location.href.replace(/"/g, '&quot;');
  return `<iframe src="${src}" width="640" height="480" style="border:0;max-width:100%" ` +
    `allow="fullscreen" loading="lazy" title="3D packaging preview"></iframe>`;
}

/** Where a phone shows the model in AR: the user agent says which app it has. */
type ArPlatform = 'quick-look' | 'scene-viewer';

function arPlatform(): ArPlatform | null {
  const agent = navigator.userAgent;
  // iPadOS asks for desktop pages as a Mac; its touch screen tells it apart.
  if (/iPhone|iPad|iPod/.test(agent) || (/Macintosh/.test(agent) && navigator.maxTouchPoints > 1)) return 'quick-look';
  if (/Android/.test(agent)) return 'scene-viewer';
  return null;
}

/** The project and share routes also write USDZ (format=usdz); template models are glb only. */
const writesUsdz = (url: URL) => /^\/(projects|shared)\/[^/]+\/model$/.test(url.pathname);

/**
 * The AR link for this platform, or null: Quick Look opens a `rel="ar"` link to a USDZ whose only
 * child is an image; Scene Viewer is an Android intent with the glb's absolute URL, falling back
 * to this page where the AR app is missing.
 */
function arLink(platform: ArPlatform | null, model: URL): string | null {
  if (platform === 'quick-look') {
    if (!writesUsdz(model)) return null;
    const usdz = new URL(model.href);
    usdz.searchParams.set('format', 'usdz');
    return usdz.href;
  }
  if (platform === 'scene-viewer') {
    const glb = new URL(model.href);
    glb.searchParams.delete('format');
    return (
      `intent://arvr.google.com/scene-viewer/1.0?file=${encodeURIComponent(glb.href)}&mode=ar_preferred` +
      '#Intent;scheme=https;package=com.google.ar.core;action=android.intent.action.VIEW;' +
      `S.browser_fallback_url=${encodeURIComponent(window.location.href)};end;`
    );
  }
  return null;
}

function showArButton(model: URL): void {
  const platform = arPlatform();
  const href = arLink(platform, model);
  const link = element<HTMLAnchorElement>('ar');
  if (!href) return;
  link.href = href;
  if (platform === 'quick-look') link.rel = 'ar';
  link.hidden = false;
}

function start(): void {
  document.body.dataset.state = 'loading';
  const params = new URLSearchParams(window.location.search);
  const share = params.get('share');
  if (share !== null && !SHARE_TOKEN.test(share)) {
    fail(loadFailure(404, true));
    return;
  }
  const url = share !== null ? sharedModelUrl(share) : modelUrl(params.get('model'));
  if (!url) {
    fail(params.get('model') ? 'Only same-origin model URLs can be shown.' : 'No model: add ?model=<url of a .glb>.');
    return;
  }
  const lightingParam = params.get('lighting');
  if (lightingParam !== null && !isPreset(lightingParam)) {
    fail('Unknown lighting preset: use studio, softbox, dramatic or outdoor.');
    return;
  }
  let lighting: LightingPreset = lightingParam ?? 'studio';
  // Without ?lighting, the preset the project was saved with (the model's scene extras) wins.
  const lightingChosen = lightingParam !== null;
  const controlsParam = params.get('controls');
  if (controlsParam !== null && controlsParam !== 'full' && controlsParam !== 'none') {
    fail('controls must be full or none.');
    return;
  }
  const angleParam = params.get('angle');
  if (angleParam !== null && !isAngle(angleParam)) {
    fail(`angle must be one of: ${Object.keys(ANGLES).join(', ')}.`);
    return;
  }
  const angle: Angle = angleParam ?? 'three-quarter';
  // controls=none: the model alone (a mockup, a clean embed); the keyboard and mouse still work.
  const chrome = controlsParam !== 'none';
  const backgroundParam = params.get('background');
  const backgroundOverride = parseHexColor(backgroundParam);
  if (backgroundParam !== null && !backgroundOverride) {
    fail('The background must be a hex colour (#rgb or #rrggbb).');
    return;
  }

  const renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = NeutralToneMapping;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = PCFSoftShadowMap;
  const scene = new Scene();
  const camera = new PerspectiveCamera(35, 1, 0.001, 100);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false;
  // All the way round, underneath too: a box's bottom (where barcodes go) can be seen.
  controls.maxPolarAngle = Math.PI - 0.01;
  // The room, prefiltered once: every preset lights with it, so metals and foil always reflect something.
  let environment: Texture | null = null;
  const roomEnvironment = (): Texture => {
    environment ??= new PMREMGenerator(renderer).fromScene(new RoomEnvironment(), 0.04, 0.1, 100, { size: 64 }).texture;
    return environment;
  };
  const ground = new Mesh(new PlaneGeometry(1, 1), new ShadowMaterial({ opacity: 0.28 }));
  ground.rotation.x = -Math.PI / 2;
  ground.receiveShadow = true;
  scene.add(ground);

  const lights: Object3D[] = [];
  let size = 0.3;
  let centre = new Vector3();
  let model: Object3D | null = null;
  let mixer: AnimationMixer | null = null;
  let foldAction: AnimationAction | null = null;
  let foldDuration = 0;
  let playing: number | null = null;
  const home = { position: new Vector3(), target: new Vector3() };

  const render = () => renderer.render(scene, camera);

  function resize(): void {
    const width = canvas.clientWidth || window.innerWidth;
    const height = canvas.clientHeight || window.innerHeight;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    frame();
  }

  /**
   * Fits the model as posed now (flat blank, mid-fold or closed) to the screen's shape: the
   * camera keeps its direction and moves so the model's bounding sphere fills the narrower of the
   * two fields of view.
   */
  function frame(): void {
    if (!model) return render();
    const box = new Box3().setFromObject(model);
    const poseCentre = box.getCenter(new Vector3());
    const radius = Math.max(box.getSize(new Vector3()).length() / 2, 1e-3);
    const vertical = (camera.fov * Math.PI) / 360;
    const horizontal = Math.atan(Math.tan(vertical) * camera.aspect);
    const distance = (radius / Math.sin(Math.min(vertical, horizontal))) * 1.02;
    const direction = camera.position.clone().sub(controls.target);
    if (direction.lengthSq() === 0) direction.set(0.35, 0.4, 1);
    controls.target.copy(poseCentre);
    camera.position.copy(poseCentre).add(direction.setLength(distance));
    centre = poseCentre;
    size = radius * 2;
    camera.near = distance / 100;
    camera.far = distance * 100;
    camera.updateProjectionMatrix();
    controls.minDistance = distance * 0.35;
    controls.maxDistance = distance * 3;
    home.position.copy(camera.position);
    home.target.copy(controls.target);
    controls.update();
    render();
  }

  function applyLighting(preset: LightingPreset): void {
    lighting = preset;
    const spec = PRESETS[preset];
    for (const light of lights.splice(0)) scene.remove(light);
    let shadowCaster = true;
    for (const light of spec.lights) {
      let object: Object3D;
      if (light.kind === 'ambient') object = new AmbientLight(light.color, light.intensity);
      else if (light.kind === 'hemisphere') object = new HemisphereLight(light.color, light.ground ?? 0x444444, light.intensity);
      else {
        const directional = new DirectionalLight(light.color, light.intensity);
        const [x, y, z] = light.from ?? [1, 1, 1];
        directional.position.set(centre.x + x * size, y * size, centre.z + z * size);
        directional.target.position.copy(centre);
        if (shadowCaster) {
          // The key light casts the contact shadow.
          shadowCaster = false;
          directional.castShadow = true;
          directional.shadow.mapSize.set(512, 512);
          directional.shadow.radius = 6;
          const extent = size * 1.2;
          Object.assign(directional.shadow.camera, {
            left: -extent,
            right: extent,
            top: extent,
            bottom: -extent,
            near: size * 0.05,
            far: size * 8,
          });
          directional.shadow.bias = -0.0005;
          scene.add(directional.target);
          lights.push(directional.target);
        }
        object = directional;
      }
      scene.add(object);
      lights.push(object);
    }
    scene.environment = roomEnvironment();
    scene.environmentIntensity = spec.environment;
    renderer.toneMappingExposure = spec.exposure;
    const background = backgroundOverride ?? spec.background;
    scene.background = new Color(background);
    handle.background = background;
    handle.lighting = preset;
    for (const button of toolbar.querySelectorAll<HTMLButtonElement>('[data-preset]')) {
      button.setAttribute('aria-pressed', String(button.dataset.preset === preset));
    }
    render();
  }

  function setFold(amount: number): void {
    if (!mixer || !foldAction) return;
    const clamped = Math.min(1, Math.max(0, amount));
    foldAction.time = clamped * foldDuration;
    mixer.update(0);
    handle.fold = clamped;
    element<HTMLInputElement>('foldSlider').value = String(Math.round(clamped * 1000));
    frame();
  }

  function stopPlaying(): void {
    if (playing !== null) cancelAnimationFrame(playing);
    playing = null;
    element<HTMLButtonElement>('foldPlay').setAttribute('aria-label', 'Play the fold');
  }

  function playFold(): void {
    if (!foldAction) return;
    if (playing !== null) return stopPlaying();
    const from = handle.fold >= 0.999 ? 0 : handle.fold;
    const started = performance.now() - from * foldDuration * 1000;
    element<HTMLButtonElement>('foldPlay').setAttribute('aria-label', 'Pause the fold');
    const step = (now: number) => {
      const amount = (now - started) / (Math.max(foldDuration, FOLD_SECONDS_MIN) * 1000);
      setFold(amount);
      playing = amount >= 1 ? null : requestAnimationFrame(step);
      if (playing === null) stopPlaying();
    };
    playing = requestAnimationFrame(step);
  }

  function resetView(): void {
    camera.position.copy(home.position);
    controls.target.copy(home.target);
    controls.update();
    render();
  }

  /** Turns the camera about its target by whole degrees (keyboard control). */
  function orbit(azimuthDeg: number, polarDeg: number): void {
    const offset = camera.position.clone().sub(controls.target);
    const spherical = new Spherical().setFromVector3(offset);
    spherical.theta += (azimuthDeg * Math.PI) / 180;
    spherical.phi = Math.min(controls.maxPolarAngle, Math.max(0.05, spherical.phi + (polarDeg * Math.PI) / 180));
    camera.position.copy(controls.target).add(new Vector3().setFromSpherical(spherical));
    controls.update();
  }

  function zoom(factor: number): void {
    const offset = camera.position.clone().sub(controls.target);
    const distance = Math.min(controls.maxDistance, Math.max(controls.minDistance, offset.length() * factor));
    camera.position.copy(controls.target).add(offset.setLength(distance));
    controls.update();
  }

  function screenshot(transparent: boolean, scale = 1): string {
    const factor = SCREENSHOT_SCALES.includes(scale) ? scale : 1;
    const background = scene.background;
    const pixelRatio = renderer.getPixelRatio();
    if (transparent) scene.background = null;
    renderer.setClearColor(0x000000, 0);
    if (factor !== 1) renderer.setPixelRatio(pixelRatio * factor);
    render();
    const url = canvas.toDataURL('image/png');
    scene.background = background;
    if (factor !== 1) renderer.setPixelRatio(pixelRatio);
    render();
    return url;
  }

  const handle: ViewerHandle = {
    lighting,
    background: backgroundOverride ?? PRESETS[lighting].background,
    hasFold: false,
    fold: 1,
    dimensionsMm: null,
    screenPositionOf(name) {
      const node = model?.getObjectByName(name);
      if (!node) return null;
      const point = new Box3().setFromObject(node).getCenter(new Vector3()).project(camera);
      const rect = canvas.getBoundingClientRect();
      return { x: rect.left + ((point.x + 1) / 2) * rect.width, y: rect.top + ((1 - point.y) / 2) * rect.height };
    },
    setLighting: applyLighting,
    setFold,
    resetView,
    screenshot,
    cameraDistance: () => camera.position.distanceTo(controls.target),
  };
  window.packagingViewer = handle;

  controls.addEventListener('change', () => {
    // Panning stays near the model: the target never leaves its surroundings.
    const limit = size * 0.75;
    const offset = controls.target.clone().sub(centre);
    if (offset.length() > limit) {
      const corrected = centre.clone().add(offset.setLength(limit));
      camera.position.add(corrected.clone().sub(controls.target));
      controls.target.copy(corrected);
    }
    render();
  });
  window.addEventListener('resize', resize);

  function wireControls(): void {
    for (const button of toolbar.querySelectorAll<HTMLButtonElement>('[data-preset]')) {
      button.addEventListener('click', () => applyLighting(button.dataset.preset as LightingPreset));
    }
    element('reset').addEventListener('click', resetView);
    element('screenshot').addEventListener('click', () => {
      const link = document.createElement('a');
      link.href = screenshot(element<HTMLInputElement>('transparent').checked, Number(element<HTMLSelectElement>('scale').value));
      link.download = 'packaging.png';
      link.click();
    });
    element('embedToggle').addEventListener('click', () => {
      const panel = element<HTMLDivElement>('embed');
      panel.hidden = !panel.hidden;
      element('embedToggle').setAttribute('aria-expanded', String(!panel.hidden));
      const code = element<HTMLTextAreaElement>('embedCode');
      code.value = embedSnippet(share !== null);
      if (!panel.hidden) code.select();
    });
    element('foldPlay').addEventListener('click', playFold);
    element<HTMLInputElement>('foldSlider').addEventListener('input', (event) => {
      stopPlaying();
      setFold(Number((event.target as HTMLInputElement).value) / 1000);
    });
    window.addEventListener('keydown', (event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      const keys: Record<string, () => void> = {
        ArrowLeft: () => orbit(-10, 0),
        ArrowRight: () => orbit(10, 0),
        ArrowUp: () => orbit(0, -8),
        ArrowDown: () => orbit(0, 8),
        '+': () => zoom(0.85),
        '=': () => zoom(0.85),
        '-': () => zoom(1 / 0.85),
        r: resetView,
        f: playFold,
      };
      const preset = LIGHTING_PRESETS[Number(event.key) - 1];
      const action =
        keys[event.key.length === 1 ? event.key.toLowerCase() : event.key] ?? (preset ? () => applyLighting(preset) : undefined);
      if (!action) return;
      event.preventDefault();
      action();
    });
  }

  const onModel = (gltf: { scene: Object3D; animations: AnimationClip[] }) => {
    model = gltf.scene;
    model.traverse((object) => {
      if (object instanceof Mesh) object.castShadow = true;
    });
    scene.add(model);
    const box = new Box3().setFromObject(model);
    centre = box.getCenter(new Vector3());
    const extent = box.getSize(new Vector3());
    size = extent.length();
    handle.dimensionsMm = { width: Math.round(extent.x * 1000), height: Math.round(extent.y * 1000), depth: Math.round(extent.z * 1000) };
    if (chrome) {
      element('dimensions').textContent = `${handle.dimensionsMm.width} × ${handle.dimensionsMm.depth} × ${handle.dimensionsMm.height} mm`;
    }
    ground.scale.setScalar(size * 8);
    // The closed model stands on y = 0; the ground stays there while the blank is lifted and turned.
    ground.position.set(centre.x, Math.min(0, box.min.y), centre.z);
    const saved = (gltf.scene.userData as { lighting?: unknown }).lighting;
    if (!lightingChosen && typeof saved === 'string' && isPreset(saved)) lighting = saved;

    const clip = gltf.animations.find((candidate) => candidate.name === 'fold');
    if (clip) {
      mixer = new AnimationMixer(model);
      foldAction = mixer.clipAction(clip);
      foldAction.play();
      foldAction.paused = true;
      foldDuration = clip.duration;
      handle.hasFold = true;
      element('fold').hidden = false;
    }

    // By default the front three-quarter view from slightly above: the front (+Z) face fills most of the view.
    camera.position.copy(centre).add(new Vector3(...ANGLES[angle]));
    controls.target.copy(centre);
    applyLighting(lighting);
    setFold(1);
    wireControls();
    toolbar.hidden = !chrome;
    if (chrome) showArButton(url);
    resize();
    status.textContent = '';
    document.body.dataset.state = 'ready';
  };

  // fetch, not the loader's own request: the page tells a missing link from a sign-in or a network failure.
  fetch(url.href, { credentials: 'same-origin' }).then(
    async (response) => {
      if (!response.ok) return fail(loadFailure(response.status, share !== null));
      new GLTFLoader().parse(await response.arrayBuffer(), '', onModel, () => fail('The model file could not be read.'));
    },
    () => fail(loadFailure(null, share !== null)),
  );
}

start();
