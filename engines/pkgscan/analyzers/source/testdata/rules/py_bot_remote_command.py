# a Discord bot whose command runs the chat's text in a shell; a bot's fixed command runs nothing the chat chose
import subprocess
import discord
from discord.ext import commands

bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())


# ruleid: py_bot_remote_command
@bot.command(name="sh")
async def sh(ctx, *, cmd: str):
    out = subprocess.run(cmd, shell=True, capture_output=True, timeout=120)
    await ctx.send(out.stdout.decode())


# ok: py_bot_remote_command
@bot.command(name="uptime")
async def uptime(ctx):
    out = subprocess.run(["uptime"], capture_output=True)
    await ctx.send(out.stdout.decode())
