"""The generator's scenes rendered a second, independent way: by Blender's path tracer, Cycles.

    python -m synth.cycles OUT [--scenes N] [--first-seed S] [--samples K] [--cocked]

writes OUT/scene-SEED.jpg and its truth OUT/scene-SEED.json (synth.Truth.to_json() of the same scene, as synth.render
tells it) for photoreal_scene(SEED): random_scene's six Qwixx dice with no clutter, hand, tray or blur; with
--cocked, OUT/cocked-SEED.* with one of the dice resting cocked against another. `bench/photoreal.py OUT` scores the
reader on them beside synth.render's frames of the same scenes.

Why: the reader's networks were trained on frames of synth.render, so its figures on those frames may flatter it
wherever it learned that renderer's ways rather than dice. Cycles traces light as a physical camera sees it: light
scattered between the dice, the table and the room, soft shadows from the lamp's disc, glossy highlights that mirror
the lamp, the bevelled and dimpled dice as real geometry. The scene (camera, dice poses and looks, lamp, table
texture) and the camera's own processing (synth.sensor.develop: exposure, white balance, noise, sharpening, JPEG) are
the generator's, so the two frames differ only in how the light is traced.

Offline only: it needs Blender as a Python module (`pip install bpy`, about 400 MB, Python 3.11 with numpy below 2),
which neither the product nor its tests install. About 30 s a 1280x720 frame on two cores at the default samples.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from synth.dice import DieShape, FACE_AXES, FACE_NORMALS, PIP_LAYOUT
from synth.generate import random_scene
from synth.geometry import Camera
from synth.scene import TABLE_KINDS, Die, Light, Scene
from synth.render import render
from synth.sensor import develop
from synth.table import TextureGrid, table_albedo_texture, table_gloss

METRES_PER_MM = 0.001
LAMP_WATTS = 1000.0
DIMPLE_SEGMENTS = 48
BEVEL_SEGMENTS = 5
DIMPLE_FLOOR_MM = 0.01
DEFAULT_SAMPLES = 24
JPEG_QUALITY = 95
FIRST_SEED = 9_000_000


def photoreal_scene(seed: int, cocked: int = 0) -> Scene:
    """The scene of `seed`: random_scene's six Qwixx dice at 1280x720 on a table of TABLE_KINDS (no tray), `cocked` of
    them resting tilted against another, with nothing else in view and nothing moving."""
    table = TABLE_KINDS[np.random.default_rng([seed, 77]).integers(len(TABLE_KINDS))]
    return random_scene(seed, table=str(table), clutter="none", blur="none", size=(1280, 720), cocked=cocked)


def frame_name(seed: int, cocked: int) -> str:
    """The file name (without suffix) of a scene's frame: scene-SEED, or cocked-SEED with a die cocked."""
    return f"{'cocked' if cocked else 'scene'}-{seed}"


def scene_named(name: str) -> Scene:
    """The scene of a frame named by frame_name."""
    kind, seed = name.rsplit("-", 1)
    if kind not in ("scene", "cocked"):
        raise ValueError(f"{name}: not a frame name of synth.cycles (scene-SEED or cocked-SEED)")
    return photoreal_scene(int(seed), cocked=int(kind == "cocked"))


def camera_frame(camera: Camera) -> tuple[np.ndarray, np.ndarray, float]:
    """Blender's camera for `camera`: its location (mm), its rotation (columns: the camera's own x, y and z axes in
    table coordinates; Blender looks down its -z with +y up in the image) and its horizontal field of view in
    radians (the principal point in the middle, as Camera has it)."""
    right, down, forward = camera.world_to_camera
    rotation = np.column_stack([right, -down, -forward])
    return camera.position.copy(), rotation, 2 * math.atan(camera.width / 2 / camera.focal_px)


def pip_centres(shape: DieShape) -> list[np.ndarray]:
    """The centre of each dimple's carving sphere, in die coordinates (mm)."""
    lift = shape.half + shape.dimple_radius - shape.pip_depth * shape.size_mm
    spacing = shape.pip_spacing * shape.size_mm
    centres = []
    for value, layout in PIP_LAYOUT.items():
        normal = np.array(FACE_NORMALS[value], float)
        u, v = (np.array(axis, float) for axis in FACE_AXES[value])
        centres += [normal * lift + (u * i + v * j) * spacing for i, j in layout]
    return centres


def lamp_irradiance(light: Light, point: np.ndarray) -> float:
    """Irradiance (W/m^2) of a level surface at `point` (table mm) from the lamp of LAMP_WATTS facing it: a small
    Lambertian disc gives P cos(a) cos(b) / (pi d^2)."""
    offset = (np.asarray(light.position, float) - point) * METRES_PER_MM
    distance = float(np.linalg.norm(offset))
    return LAMP_WATTS * (offset[2] / distance) / (math.pi * distance ** 2)


# --- Blender ------------------------------------------------------------------------------------------------------

def _bpy():
    try:
        import bpy
    except ImportError as error:
        raise SystemExit("synth.cycles needs Blender as a Python module: pip install bpy (Python 3.11, numpy < 2); "
                         f"({error})") from error
    return bpy


def render_radiance(scene: Scene, samples: int = DEFAULT_SAMPLES) -> np.ndarray:
    """The light reaching the camera, linear RGB (height, width, 3) float32, as Cycles traces it."""
    bpy = _bpy()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    blender = bpy.context.scene
    _set_up_render(blender, scene.camera, samples)
    _add_camera(bpy, blender, scene.camera)
    _add_table(bpy, scene)
    _add_light(bpy, blender, scene)
    masters: dict[DieShape, object] = {}
    for index, die in enumerate(scene.dice):
        if die.shape not in masters:
            masters[die.shape] = _die_mesh(bpy, die.shape)
        _add_die(bpy, die, masters[die.shape], index)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "radiance.exr")
        blender.render.filepath = path
        bpy.ops.render.render(write_still=True)
        image = bpy.data.images.load(path)
        pixels = np.empty(image.size[0] * image.size[1] * 4, np.float32)
        image.pixels.foreach_get(pixels)
    # Blender's rows run from the bottom up.
    return np.ascontiguousarray(pixels.reshape(image.size[1], image.size[0], 4)[::-1, :, :3])


def _set_up_render(blender, camera: Camera, samples: int) -> None:
    blender.render.engine = "CYCLES"
    blender.cycles.device = "CPU"
    blender.cycles.samples = samples
    blender.cycles.use_denoising = True
    blender.cycles.max_bounces = 6
    blender.render.resolution_x, blender.render.resolution_y = camera.width, camera.height
    blender.render.resolution_percentage = 100
    blender.render.image_settings.file_format = "OPEN_EXR"
    blender.render.image_settings.color_depth = "32"
    blender.view_settings.view_transform = "Standard"
    blender.unit_settings.scale_length = 1.0


def _add_camera(bpy, blender, camera: Camera) -> None:
    location, rotation, angle = camera_frame(camera)
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.angle = angle
    data.clip_start = 0.01
    data.clip_end = 20.0
    obj = bpy.data.objects.new("camera", data)
    obj.matrix_world = _matrix(location * METRES_PER_MM, rotation)
    bpy.context.collection.objects.link(obj)
    blender.camera = obj


def _matrix(location, rotation):
    from mathutils import Matrix
    matrix = Matrix.Identity(4)
    for row in range(3):
        for col in range(3):
            matrix[row][col] = float(rotation[row, col])
        matrix[row][3] = float(location[row])
    return matrix


def _add_table(bpy, scene: Scene) -> None:
    """The table's own texture (synth.table) over the part the camera sees, on a plane."""
    grid = TextureGrid(scene.camera)
    albedo = table_albedo_texture(scene.table, grid)
    image = bpy.data.images.new("table", grid.cols, grid.rows, float_buffer=True)
    image.colorspace_settings.name = "Linear Rec.709"
    rgba = np.concatenate([albedo, np.ones((*albedo.shape[:2], 1), np.float32)], axis=2)
    image.pixels.foreach_set(rgba.astype(np.float32).ravel())
    x0, y0 = grid.x0, grid.y0
    x1, y1 = x0 + grid.cols * grid.mm, y0 + grid.rows * grid.mm
    mesh = bpy.data.meshes.new("table")
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    mesh.from_pydata([(x * METRES_PER_MM, y * METRES_PER_MM, 0.0) for x, y in corners], [], [(0, 1, 2, 3)])
    uv = mesh.uv_layers.new(name="uv")
    for loop, (u, v) in zip(uv.data, [(0, 0), (1, 0), (1, 1), (0, 1)]):
        loop.uv = (u, v)
    material, principled = _material(bpy, "table")
    texture = material.node_tree.nodes.new("ShaderNodeTexImage")
    texture.image = image
    texture.interpolation = "Linear"
    material.node_tree.links.new(texture.outputs["Color"], principled.inputs["Base Color"])
    gloss = table_gloss(scene.table)
    principled.inputs["Roughness"].default_value = 0.9 - 0.7 * gloss
    principled.inputs["Specular IOR Level"].default_value = 0.2 + 0.6 * gloss
    mesh.materials.append(material)
    obj = bpy.data.objects.new("table", mesh)
    bpy.context.collection.objects.link(obj)


def _material(bpy, name: str):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    principled = next(node for node in material.node_tree.nodes if node.type == "BSDF_PRINCIPLED")
    return material, principled


def _add_light(bpy, blender, scene: Scene) -> None:
    """The lamp as a disc facing the middle of the view, and the room's light as the world's, their balance as
    Light gives it (`ambient` of the lamp's irradiance on a level surface there)."""
    light = scene.light
    target = np.array([*scene.camera.target, 0.0])
    data = bpy.data.lights.new("lamp", type="AREA")
    data.shape = "DISK"
    data.size = 2 * light.size_mm * METRES_PER_MM
    data.energy = LAMP_WATTS
    data.color = tuple(float(c) for c in light.colour / light.colour.max())
    obj = bpy.data.objects.new("lamp", data)
    position = np.asarray(light.position, float)
    facing = target - position
    facing /= np.linalg.norm(facing)
    # The disc emits down its own -z: any x, y axes square to it will do.
    side = np.cross(facing, [0.0, 1.0, 0.0] if abs(facing[1]) < 0.9 else [1.0, 0.0, 0.0])
    side /= np.linalg.norm(side)
    rotation = np.column_stack([side, np.cross(-facing, side), -facing])
    obj.matrix_world = _matrix(position * METRES_PER_MM, rotation)
    bpy.context.collection.objects.link(obj)
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    ambient = light.ambient * lamp_irradiance(light, target) / math.pi
    colour = light.ambient_colour / light.ambient_colour.max()
    background.inputs["Color"].default_value = (*[float(c) for c in colour], 1.0)
    background.inputs["Strength"].default_value = float(ambient)
    blender.world = world


def _die_mesh(bpy, shape: DieShape):
    """A bevelled cube with a spherical dimple carved for each pip; the faces inside the dimples take the
    second material."""
    import bmesh
    size = shape.size_mm * METRES_PER_MM
    bpy.ops.mesh.primitive_cube_add(size=size)
    cube = bpy.context.active_object
    bevel = cube.modifiers.new("bevel", "BEVEL")
    bevel.width = shape.corner_radius * size
    bevel.segments = BEVEL_SEGMENTS
    bevel.limit_method = "NONE"
    bpy.ops.object.modifier_apply(modifier="bevel")
    radius = shape.dimple_radius * METRES_PER_MM
    cutters = []
    for centre in pip_centres(shape):
        bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, segments=DIMPLE_SEGMENTS, ring_count=DIMPLE_SEGMENTS // 2,
                                             location=tuple(centre * METRES_PER_MM))
        cutters.append(bpy.context.active_object)
    bpy.ops.object.select_all(action="DESELECT")
    for cutter in cutters:
        cutter.select_set(True)
    bpy.context.view_layer.objects.active = cutters[0]
    bpy.ops.object.join()
    spheres = bpy.context.active_object
    carve = cube.modifiers.new("dimples", "BOOLEAN")
    carve.operation = "DIFFERENCE"
    carve.solver = "EXACT"
    carve.object = spheres
    bpy.context.view_layer.objects.active = cube
    bpy.ops.object.modifier_apply(modifier="dimples")
    bpy.data.objects.remove(spheres)
    mesh = cube.data
    centres = np.array(pip_centres(shape))
    editing = bmesh.new()
    editing.from_mesh(mesh)
    for face in editing.faces:
        centre = np.array(face.calc_center_median()) / METRES_PER_MM
        # A dimple's faces lie on its carving sphere, below the face they are carved in; the faces left of the cube
        # lie in its face planes (those round a dimple may have their centre in it) or round its edges.
        below_face = bool(np.abs(centre).max() < shape.half - DIMPLE_FLOOR_MM)
        on_sphere = bool(np.linalg.norm(centres - centre, axis=1).min() < shape.dimple_radius + DIMPLE_FLOOR_MM)
        face.material_index = int(below_face and on_sphere)
        # Smooth shading for the rounded parts only: across a flat face with holes it would ripple.
        face.smooth = bool(face.material_index or np.abs(np.array(face.normal)).max() < 0.999)
    editing.to_mesh(mesh)
    editing.free()
    mesh.materials.append(None)
    mesh.materials.append(None)
    bpy.data.objects.remove(cube)
    return mesh


def _add_die(bpy, die: Die, mesh, index: int) -> None:
    look = die.resolved_look
    obj = bpy.data.objects.new(f"die-{index}", mesh)
    body, body_shader = _material(bpy, f"body-{index}")
    body_shader.inputs["Base Color"].default_value = (*look.body, 1.0)
    body_shader.inputs["Roughness"].default_value = 0.55 - 0.45 * look.gloss
    if look.finish == "translucent":
        body_shader.inputs["Transmission Weight"].default_value = 0.7
    elif look.finish == "marbled":
        _marble(body, body_shader, look, die.seed)
    pips, pip_shader = _material(bpy, f"pips-{index}")
    pip_shader.inputs["Base Color"].default_value = (*look.pips, 1.0)
    pip_shader.inputs["Roughness"].default_value = 0.6
    # The dice share one mesh; each takes its own materials into the mesh's two slots.
    for slot, material in zip(obj.material_slots, (body, pips)):
        slot.link = "OBJECT"
        slot.material = material
    obj.matrix_world = _matrix(np.asarray(die.pose.position) * METRES_PER_MM, die.pose.matrix)
    bpy.context.collection.objects.link(obj)


def _marble(material, principled, look, seed: int) -> None:
    nodes, links = material.node_tree.nodes, material.node_tree.links
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = 60.0
    noise.inputs["Detail"].default_value = 6.0
    noise.inputs["W"].default_value = float(seed % 100)
    noise.noise_dimensions = "4D"
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (*look.body, 1.0)
    ramp.color_ramp.elements[1].color = (*look.second, 1.0)
    ramp.color_ramp.elements[0].position, ramp.color_ramp.elements[1].position = 0.45, 0.6
    links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], principled.inputs["Base Color"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED,
                        help="seeds far from those the networks were trained on and bench/vision.py scores")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--cocked", action="store_true", help="one die of each scene resting cocked against another "
                        "(cocked-SEED.jpg), as bench/vision.py --cocked scores")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for seed in range(args.first_seed, args.first_seed + args.scenes):
        stem = args.out / frame_name(seed, int(args.cocked))
        if stem.with_suffix(".json").exists():
            continue
        scene = photoreal_scene(seed, int(args.cocked))
        frame = develop(render_radiance(scene, args.samples), scene.light, scene.effects)
        cv2.imwrite(str(stem.with_suffix(".jpg")), frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        stem.with_suffix(".json").write_text(json.dumps(render(scene)[1].to_json()))
        print(stem.name, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
