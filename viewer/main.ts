// The packaging viewer: loads one same-origin binary glTF (?model=, or ?share=<token> for the
// model behind a share link), lights it with a preset
// (?lighting=studio|softbox|dramatic|outdoor), sets the background (?background=#rrggbb) and
// lets the user orbit. State is published on <body data-state> (loading, ready, error) and the
// `window.packagingViewer` handle, for embedding pages and the browser tests.
import {
  AmbientLight,
  Box3,
  Color,
  DirectionalLight,
  HemisphereLight,
  NeutralToneMapping,
  PerspectiveCamera,
  PMREMGenerator,
  Scene,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
  type Object3D,
  type Texture,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { isPreset, parseHexColor, PRESETS, type LightingPreset } from './presets.js';

interface ViewerHandle {
  lighting: LightingPreset;
  background: string;
  /** Screen position (CSS pixels) of a named node's centre, e.g. a box panel. */
  screenPositionOf(name: string): { x: number; y: number } | null;
  setLighting(preset: LightingPreset): void;
}

declare global {
  interface Window {
    packagingViewer?: ViewerHandle;
  }
}

const status = document.getElementById('status')!;
const canvas = document.getElementById('viewer') as HTMLCanvasElement;

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

/** A share link's token: the model behind it, on this origin, with no login. */
const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function sharedModelUrl(token: string): URL {
  return new URL(`shared/${token}/model`, window.location.href);
}

/** Why a model did not load, in words for the person looking at the page. */
function loadFailure(status: number | null, shared: boolean): string {
  if (status === null) return 'The model could not be reached: check the connection and reload.';
  if (status === 404) return shared ? 'This share link does not exist, has expired or was revoked.' : 'The model was not found.';
  if (status === 401 || status === 403) return 'This model needs its owner\'s sign-in: ask for a share link.';
  if (status === 503) return 'The model is busy being made: reload in a moment.';
  return `The model could not be loaded (HTTP ${status}).`;
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
  const backgroundParam = params.get('background');
  const backgroundOverride = parseHexColor(backgroundParam);
  if (backgroundParam !== null && !backgroundOverride) {
    fail('The background must be a hex colour (#rgb or #rrggbb).');
    return;
  }

  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = NeutralToneMapping;
  const scene = new Scene();
  const camera = new PerspectiveCamera(35, 1, 0.001, 100);
  const controls = new OrbitControls(camera, canvas);
  let environment: Texture | null = null;
  // Prefiltered on first use only: the pass is slow on software WebGL.
  const roomEnvironment = (): Texture => {
    environment ??= new PMREMGenerator(renderer).fromScene(new RoomEnvironment(), 0.04, 0.1, 100, { size: 64 }).texture;
    return environment;
  };
  const lights: Object3D[] = [];
  let size = 0.3;
  let model: Object3D | null = null;

  const render = () => renderer.render(scene, camera);

  function resize(): void {
    const width = canvas.clientWidth || window.innerWidth;
    const height = canvas.clientHeight || window.innerHeight;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  }

  function applyLighting(preset: LightingPreset): void {
    lighting = preset;
    const spec = PRESETS[preset];
    for (const light of lights.splice(0)) scene.remove(light);
    for (const light of spec.lights) {
      let object: Object3D;
      if (light.kind === 'ambient') object = new AmbientLight(light.color, light.intensity);
      else if (light.kind === 'hemisphere') object = new HemisphereLight(light.color, light.ground ?? 0x444444, light.intensity);
      else {
        const directional = new DirectionalLight(light.color, light.intensity);
        const [x, y, z] = light.from ?? [1, 1, 1];
        directional.position.set(x * size, y * size, z * size);
        object = directional;
      }
      scene.add(object);
      lights.push(object);
    }
    scene.environment = spec.environment > 0 ? roomEnvironment() : null;
    scene.environmentIntensity = spec.environment;
    renderer.toneMappingExposure = spec.exposure;
    const background = backgroundOverride ?? spec.background;
    scene.background = new Color(background);
    handle.background = background;
    handle.lighting = preset;
    render();
  }

  const handle: ViewerHandle = {
    lighting,
    background: backgroundOverride ?? PRESETS[lighting].background,
    screenPositionOf(name) {
      const node = model?.getObjectByName(name);
      if (!node) return null;
      const centre = new Box3().setFromObject(node).getCenter(new Vector3()).project(camera);
      const rect = canvas.getBoundingClientRect();
      return { x: rect.left + ((centre.x + 1) / 2) * rect.width, y: rect.top + ((1 - centre.y) / 2) * rect.height };
    },
    setLighting: applyLighting,
  };
  window.packagingViewer = handle;

  controls.addEventListener('change', render);
  window.addEventListener('resize', resize);

  const onModel = (gltf: { scene: Object3D }) => {
    model = gltf.scene;
    scene.add(model);
    const box = new Box3().setFromObject(model);
    const centre = box.getCenter(new Vector3());
    size = box.getSize(new Vector3()).length();
    // Front three-quarter view from slightly above: the front (+Z) face fills most of the view.
    const distance = size / (2 * Math.tan((camera.fov * Math.PI) / 360)) * 1.05;
    camera.position.copy(centre).add(new Vector3(0.35, 0.4, 1).normalize().multiplyScalar(distance));
    camera.near = distance / 100;
    camera.far = distance * 100;
    controls.target.copy(centre);
    controls.update();
    applyLighting(lighting);
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
