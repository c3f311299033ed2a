"""Open an nscd run in ParaView with a ready-made view.

    pvpython tools/paraview_view.py OUT [--time T] [--play]              a window (mouse: rotate, zoom)
    pvbatch --force-offscreen-rendering tools/paraview_view.py OUT --png FILE [--time T] [--size 1200x800]
    pvpython tools/paraview_view.py OUT --state FILE.pvsm                 the view for ParaView's GUI
                                                                          (File > Load State)

OUT is the output directory of `nscd run` (or its .pvd file). The view shows:
  - the moving bodies, coloured by von Mises stress (cells, when the run has a finite-element
    body) or else by velocity magnitude (points), half transparent so that the contacts show;
  - the fixed bodies in grey;
  - the contact forces as arrows along `reaction` (the force on body b), their length
    proportional to its magnitude, coloured by status (open, stick, slip);
  - the joints' thrust lines, when the run has joints (joints_NNNNNN.vtp, in the .pvd or next
    to it);
  - the simulated time in seconds.
The colour range (0 to the run's largest value) and the arrows' scale (the median over the
output times of the largest force is drawn 8 % of the scene's size) are fixed over the run, read
from up to 60 output times, so that frames compare. T is snapped to the nearest output time (default: the last one).

Needs ParaView's Python (Debian: python3-paraview, which provides pvpython; pvbatch is in
paraview). Exit codes: 0 success, 2 invalid input (no .pvd, unreadable .pvd, time outside the run).
"""

import argparse
import glob
import math
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

EXIT_INVALID_INPUT = 2
RANGE_SAMPLES = 60        # output times read to fix the colour ranges and the arrows' scale
ARROW_FRACTION = 0.08     # a typical largest force's arrow, as a fraction of the bodies' bounding-box diagonal
BODY_OPACITY = 0.55
FIXED_COLOUR = [0.72, 0.72, 0.72]
JOINT_COLOUR = [0.85, 0.1, 0.55]
STATUS_COLOURS = [0.55, 0.55, 0.55, 0.15, 0.35, 0.95, 0.95, 0.35, 0.05]  # open, stick, slip (RGB)


def fail(message):
    """Prints an input error and exits with code 2."""
    print(f"paraview_view.py: error: {message}", file=sys.stderr)
    sys.exit(EXIT_INVALID_INPUT)


def find_pvd(out):
    """The .pvd file of OUT (a directory holding exactly one, or the file itself)."""
    if os.path.isfile(out) and out.endswith(".pvd"):
        return os.path.abspath(out)
    if not os.path.isdir(out):
        fail(f"{out}: expected the output directory of `nscd run` or its .pvd file, found "
             f"{'a file' if os.path.exists(out) else 'no such directory'}")
    found = sorted(glob.glob(os.path.join(out, "*.pvd")))
    if len(found) != 1:
        fail(f"{out}: expected one .pvd file (written by `nscd run` with \"output\": {{\"vtk\": true}}), "
             f"found {len(found)}")
    return os.path.abspath(found[0])


def read_pvd(pvd):
    """The collection's output times (sorted), the block of each kind of file (bodies, contacts,
    fixed, joints: the file names' prefix) as ParaView names it (the DataSet's name, or BlockN for
    part N in a collection without names) and the time of each output index NNNNNN."""
    try:
        datasets = list(ET.parse(pvd).getroot().iter("DataSet"))
    except (ET.ParseError, OSError) as e:
        fail(f"{pvd}: expected a ParaView collection (.pvd): {e}")
    times, parts, index_times = set(), {}, {}
    for d in datasets:
        try:
            t, part, name = float(d.get("timestep")), int(d.get("part", "0")), os.path.basename(d.get("file"))
        except (TypeError, ValueError):
            fail(f"{pvd}: expected DataSet elements with a numeric timestep and part and a file, "
                 f"found {ET.tostring(d, encoding='unicode').strip()}")
        times.add(t)
        kind = re.match(r"[a-z]*", name).group(0)
        parts.setdefault(kind, d.get("name") or f"Block{part}")
        numbered = re.fullmatch(r"[a-z]+_(\d+)\.vt[up]", name)
        if numbered:
            index_times[int(numbered.group(1))] = t
    if "bodies" not in parts:
        fail(f"{pvd}: expected bodies_NNNNNN.vtu files in the collection, found none")
    return sorted(times), parts, index_times


def joints_collection(pvd, parts, index_times, directory):
    """joints_NNNNNN.vtp next to the .pvd but not in it: a collection of them at the times of
    their output index, written into DIRECTORY; None when there are none."""
    if "joints" in parts:
        return None
    entries = []
    for path in sorted(glob.glob(os.path.join(os.path.dirname(pvd), "joints_*.vtp"))):
        index = re.fullmatch(r"joints_(\d+)\.vtp", os.path.basename(path))
        if index and int(index.group(1)) in index_times:
            entries.append((index_times[int(index.group(1))], os.path.abspath(path)))
    if not entries:
        return None
    out = os.path.join(directory, os.path.splitext(os.path.basename(pvd))[0] + "_joints.pvd")
    with open(out, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n  <Collection>\n')
        for t, path in entries:
            f.write(f'    <DataSet timestep="{t!r}" part="0" file="{path}"/>\n')
        f.write("  </Collection>\n</VTKFile>\n")
    return out


def nearest_time(times, t):
    if t is None:
        return times[-1]
    tolerance = 1e-9 * max(1.0, abs(times[-1]))
    if t < times[0] - tolerance or t > times[-1] + tolerance:
        fail(f"--time {t}: expected a time within the run, {times[0]} to {times[-1]} s")
    return min(times, key=lambda s: abs(s - t))


def sampled(times):
    step = max(1, math.ceil(len(times) / RANGE_SAMPLES))
    return sorted(set(times[::step]) | {times[-1]})


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", help="output directory of `nscd run`, or its .pvd file")
    p.add_argument("--time", type=float, help="simulated time [s] shown (nearest output time; default: the last)")
    p.add_argument("--png", help="render off screen into this PNG file and exit")
    p.add_argument("--size", default="1200x800", help="PNG size in pixels, WxH (default 1200x800)")
    p.add_argument("--state", help="save the view as a ParaView state file (.pvsm) and exit")
    p.add_argument("--play", action="store_true", help="window: play the animation once before handing over the mouse")
    args = p.parse_args()
    size = re.fullmatch(r"(\d+)x(\d+)", args.size)
    if not size or min(int(size.group(1)), int(size.group(2))) < 16:
        fail(f"--size {args.size}: expected WIDTHxHEIGHT in pixels, each at least 16, e.g. 1200x800")
    args.size = [int(size.group(1)), int(size.group(2))]
    for option, path in (("--png", args.png), ("--state", args.state)):
        if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            fail(f"{option} {path}: no such directory {os.path.dirname(os.path.abspath(path))}")
    return args


def main():
    args = parse_args()
    pvd = find_pvd(args.out)
    times, parts, index_times = read_pvd(pvd)
    shown_time = nearest_time(times, args.time)
    if args.time is not None and shown_time != args.time:
        print(f"paraview_view.py: showing t = {shown_time} s, the output time nearest to {args.time} s")
    with tempfile.TemporaryDirectory(prefix="nscd_view_") as scratch:
        # with --state, the joints' collection must outlive the script: next to the state file
        joints_pvd = joints_collection(pvd, parts, index_times,
                                       os.path.dirname(os.path.abspath(args.state)) if args.state else scratch)
        show(args, pvd, times, parts, shown_time, joints_pvd)


def show(args, pvd, times, parts, shown_time, joints_pvd):
    """Builds the view; renders the PNG, saves the state or opens the window."""
    import paraview.simple as pv

    check_batch(args)
    bodies, contacts, fixed, joints = open_parts(pv, pvd, parts, joints_pvd)
    field, field_max, typical_force = run_ranges(bodies, contacts, times, shown_time)
    bounds = scene_bounds((bodies, fixed), shown_time)
    diagonal = math.dist(bounds[0::2], bounds[1::2])
    view = create_view(pv, args.size, shown_time)
    show_bodies(pv, view, bodies, field, field_max)
    if fixed:
        show_in_colour(pv, fixed, view, FIXED_COLOUR).Opacity = BODY_OPACITY
    if contacts and typical_force > 0:
        show_contact_forces(pv, view, contacts, ARROW_FRACTION * diagonal / typical_force)
    if joints:
        shown_joints = show_in_colour(pv, joints, view, JOINT_COLOUR)
        shown_joints.LineWidth = 4.0
        shown_joints.RenderLinesAsTubes = 1
    show_clock(pv, view)
    place_camera(pv, view, bounds, diagonal)
    scene = pv.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = shown_time
    output(pv, view, scene, args, shown_time)


def check_batch(args):
    """pvbatch has no window: it needs --png or --state."""
    from paraview import servermanager

    batch = servermanager.vtkProcessModule.GetProcessModule().GetProcessType() == \
        servermanager.vtkProcessModule.PROCESS_BATCH
    if batch and not (args.png or args.state):
        fail("pvbatch has no window: give --png FILE (or --state FILE.pvsm), or run the script with pvpython")


def open_parts(pv, pvd, parts, joints_pvd):
    """The collection's bodies, contacts, fixed bodies and joints, each as one dataset (None when
    the run has none)."""
    reader = pv.PVDReader(registrationName=os.path.basename(pvd), FileName=pvd)

    def part(kind):
        """One kind of file of the collection, as one dataset."""
        block = pv.ExtractBlock(registrationName=f"{kind} block", Input=reader,
                                Selectors=[f"/Root/{parts[kind]}"])
        return pv.MergeBlocks(registrationName=kind, Input=block)

    bodies = part("bodies")
    contacts = part("contacts") if "contacts" in parts else None
    fixed = part("fixed") if "fixed" in parts else None
    if "joints" in parts:
        joints = part("joints")
    elif joints_pvd:
        joints = pv.PVDReader(registrationName="joints", FileName=joints_pvd)
    else:
        joints = None
    return bodies, contacts, fixed, joints


def run_ranges(bodies, contacts, times, shown_time):
    """The bodies' colour field (von Mises stress on cells when the run has it, else the
    velocity on points), its largest value over the run and the typical largest contact force."""
    bodies.UpdatePipeline(shown_time)
    stress = "von_mises" in bodies.CellData.keys()
    field = ("CELLS", "von_mises") if stress else ("POINTS", "velocity")
    field_max, largest_forces = 0.0, []
    for t in sampled(times):
        bodies.UpdatePipeline(t)
        data = bodies.CellData if stress else bodies.PointData
        if field[1] in data.keys():
            field_max = max(field_max, data[field[1]].GetRange(-1)[1])
        if contacts:
            contacts.UpdatePipeline(t)
            if "reaction" in contacts.PointData.keys():
                largest_forces.append(contacts.PointData["reaction"].GetRange(-1)[1])
    # the arrows' scale: a typical largest force (the median over the output times, as an impact's
    # peak would make the resting contacts' arrows invisible) is drawn ARROW_FRACTION of the scene
    typical_force = sorted(largest_forces)[len(largest_forces) // 2] if largest_forces else 0.0
    return field, field_max, typical_force


def scene_bounds(sources, shown_time):
    """[xmin, xmax, ymin, ymax, zmin, zmax] of the sources (None skipped) at the shown time."""
    bounds = [math.inf, -math.inf] * 3
    for source in sources:
        if source:
            source.UpdatePipeline(shown_time)
            b = source.GetDataInformation().GetBounds()
            bounds = [min(bounds[i], b[i]) if i % 2 == 0 else max(bounds[i], b[i]) for i in range(6)]
    return bounds


def create_view(pv, size, shown_time):
    """A render view on a white background at the shown time."""
    view = pv.CreateView("RenderView")
    view.ViewSize = size
    view.Background = [1, 1, 1]
    view.OrientationAxesVisibility = 1
    view.ViewTime = shown_time
    if hasattr(view, "UseColorPaletteForBackground"):
        view.UseColorPaletteForBackground = 0
    return view


def show_in_colour(pv, source, view, colour):
    """source shown in view in one colour, no array mapped; its display."""
    shown = pv.Show(source, view)
    shown.ColorArrayName = ["POINTS", ""]
    shown.AmbientColor = shown.DiffuseColor = colour
    return shown


def show_bodies(pv, view, bodies, field, field_max):
    """The moving bodies coloured by the field over 0 to field_max, half transparent, with a bar."""
    stress = field[1] == "von_mises"
    shown = pv.Show(bodies, view)
    pv.ColorBy(shown, field + (("Magnitude",) if not stress else ()))
    lut = pv.GetColorTransferFunction(field[1])
    lut.AutomaticRescaleRangeMode = "Never"
    lut.RescaleTransferFunction(0.0, field_max if field_max > 0 else 1.0)
    shown.Opacity = BODY_OPACITY
    shown.SetScalarBarVisibility(view, True)
    bar = pv.GetScalarBar(lut, view)
    bar.Title = "von Mises stress [Pa]" if stress else "velocity [m/s]"
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]


def show_contact_forces(pv, view, contacts, scale):
    """The contact forces as arrows along `reaction`, scale metres per newton, coloured by status."""
    arrows = pv.Glyph(registrationName="contact forces", Input=contacts, GlyphType="Arrow")
    arrows.OrientationArray = ["POINTS", "reaction"]
    arrows.ScaleArray = ["POINTS", "reaction"]
    arrows.ScaleFactor = scale
    arrows.GlyphMode = "All Points"
    shown_arrows = pv.Show(arrows, view)
    pv.ColorBy(shown_arrows, ("POINTS", "status"))
    status = pv.GetColorTransferFunction("status")
    status.InterpretValuesAsCategories = 1
    status.Annotations = ["0", "open", "1", "stick", "2", "slip"]
    status.IndexedColors = STATUS_COLOURS
    shown_arrows.SetScalarBarVisibility(view, True)
    status_bar = pv.GetScalarBar(status, view)
    status_bar.Title = "contact force"
    status_bar.WindowLocation = "Upper Right Corner"
    status_bar.TitleColor = status_bar.LabelColor = [0, 0, 0]


def show_clock(pv, view):
    """The simulated time, upper left."""
    clock = pv.AnnotateTime(registrationName="time")
    clock.Format = "t = {time:.4g} s"
    shown_clock = pv.Show(clock, view)
    shown_clock.WindowLocation = "Upper Left Corner"
    shown_clock.FontSize = 20
    shown_clock.Color = [0, 0, 0]


def place_camera(pv, view, bounds, diagonal):
    """An oblique view from the front right, z up (the scenes' gravity is along −z)."""
    pv.Render(view)  # ParaView fits the camera at the first render: place it afterwards
    centre = [(bounds[2 * i] + bounds[2 * i + 1]) / 2 for i in range(3)]
    view.CameraFocalPoint = centre
    view.CameraPosition = [centre[0] + 0.6 * diagonal, centre[1] - 1.4 * diagonal, centre[2] + 0.7 * diagonal]
    view.CameraViewUp = [0, 0, 1]
    view.ResetCamera(False)
    view.CameraPosition = [f + (p - f) / 1.15 for f, p in zip(view.CameraFocalPoint, view.CameraPosition)]


def output(pv, view, scene, args, shown_time):
    """Saves the state, renders the PNG, or opens the window (after playing the animation)."""
    if args.state:
        pv.SaveState(args.state)
        print(f"paraview_view.py: wrote {args.state} (ParaView: File > Load State)")
    if args.png:
        pv.Render(view)
        pv.SaveScreenshot(args.png, view, ImageResolution=args.size)
        print(f"paraview_view.py: wrote {args.png} (t = {shown_time} s)")
    if not (args.png or args.state):
        if args.play:
            scene.Play()
            scene.AnimationTime = shown_time
        pv.Render(view)
        pv.Interact(view)


if __name__ == "__main__":
    main()
